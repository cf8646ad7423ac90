import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGiveWay, type GiveWayOptions } from './give-way';

/** A server whose every request is counted by a give-way and held until the test answers it. */
async function heldServer(options: GiveWayOptions) {
  const giveWay = createGiveWay(options);
  const held: { req: IncomingMessage; res: ServerResponse }[] = [];
  const server = createServer((req, res) => {
    giveWay.arrived(req, res);
    held.push({ req, res });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  /** Sends a request and waits until the server holds it; `answered` when its response ends. */
  const visit = async () => {
    const before = held.length;
    let client!: ReturnType<typeof request>;
    const answered = new Promise<void>((resolve, reject) => {
      client = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      client.on('error', reject);
      client.end();
    });
    while (held.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    return { ...held[before]!, client, answered };
  };
  return { giveWay, server, visit };
}

/** Whether `promise` has settled by the time the event loop has gone round a few times. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function setUp(options: GiveWayOptions) {
  const made = await heldServer(options);
  servers.push(made.server);
  return made;
}

describe('the give-way of downloads to visitors', () => {
  it('lets a download go on at once when no request is in flight', () => {
    const giveWay = createGiveWay({ enabled: true });
    expect(giveWay.inFlight).toBe(0);
    expect(giveWay.turn()).toBeUndefined();
  });

  it("holds a download's turn while a visitor's request is in flight, and gives it back once answered", async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 60_000, quietMs: 0 });
    const visitor = await visit();
    expect(giveWay.inFlight).toBe(1);
    const turn = giveWay.turn();
    expect(turn).toBeInstanceOf(Promise);
    expect(await settled(turn!)).toBe(false);

    visitor.res.end('ok');
    await visitor.answered;
    await turn;
    expect(giveWay.inFlight).toBe(0);
    expect(giveWay.turn()).toBeUndefined();
  });

  it('waits for the last of several visitors, each waiter alike', async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 60_000, quietMs: 0 });
    const [a, b] = [await visit(), await visit()];
    const turns = [giveWay.turn()!, giveWay.turn()!];
    a.res.end('a');
    await a.answered;
    expect(giveWay.inFlight).toBe(1);
    expect(await settled(Promise.all(turns).then(() => {}))).toBe(false);
    b.res.end('b');
    await Promise.all(turns);
  });

  it('keeps waiting for a quiet moment after the last answer (its client is still reading it)', async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 60_000, quietMs: 60_000 });
    const visitor = await visit();
    visitor.res.end('ok');
    await visitor.answered;
    await new Promise((resolve) => setImmediate(resolve));
    expect(giveWay.inFlight).toBe(0);
    const turn = giveWay.turn();
    expect(turn).toBeInstanceOf(Promise);
    expect(await settled(turn!)).toBe(false);
  });

  it('counts a request its client dropped as gone', async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 60_000, quietMs: 0 });
    const visitor = await visit();
    visitor.answered.catch(() => {});
    const turn = giveWay.turn()!;
    visitor.client.destroy();
    await turn;
    expect(giveWay.inFlight).toBe(0);
  });

  it("never counts a download's own request once excused, nor counts one request out twice", async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 60_000, quietMs: 0 });
    const download = await visit();
    const visitor = await visit();
    expect(giveWay.inFlight).toBe(2);
    giveWay.excuse(download.req);
    giveWay.excuse(download.req);
    expect(giveWay.inFlight).toBe(1);
    download.res.end('file');
    await download.answered;
    expect(giveWay.inFlight).toBe(1);
    // Counting the same request again changes nothing either.
    giveWay.arrived(visitor.req, visitor.res);
    expect(giveWay.inFlight).toBe(1);
    visitor.res.end('ok');
    await visitor.answered;
    expect(giveWay.inFlight).toBe(0);
  });

  it('bounds a wait, then lets the download work a slice without giving way', async () => {
    const { giveWay, visit } = await setUp({ enabled: true, maxWaitMs: 20, quietMs: 0, sliceMs: 60_000 });
    const visitor = await visit();
    const turn = giveWay.turn()!;
    await turn;
    // Still in flight, yet the download goes on: its wait reached its bound.
    expect(giveWay.inFlight).toBe(1);
    expect(giveWay.turn()).toBeUndefined();
    visitor.res.end('ok');
  });

  it('never waits when turned off (DOWNLOADS_GIVE_WAY=false)', async () => {
    const { giveWay, visit } = await setUp({ enabled: false });
    const visitor = await visit();
    expect(giveWay.inFlight).toBe(1);
    expect(giveWay.turn()).toBeUndefined();
    visitor.res.end('ok');
  });
});
