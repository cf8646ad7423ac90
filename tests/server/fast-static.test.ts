/**
 * The static fast path over real sockets (decision 012): what it answers itself is byte for byte
 * what Node's path answers, and every request it does not answer reaches Node intact, on the
 * same connection, in order. The same tests run with `STATIC_FAST_PATH=false`, where Node alone
 * answers everything, and must pass the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachStaticFastPath, parseRequestHead } from '../../src/server/root/site/fast-static';
import { makeTestApp } from './helpers';
import { SERVER_MODES } from './over-http';

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
type Response = { status: number; headers: Record<string, string>; body: Buffer };

/** Reads `count` responses from a socket (bodies by Content-Length; none for HEAD or 304). */
function readResponses(
  socket: Socket,
  count: number,
  heads: boolean[] = [],
  deadlineMs = 5000,
): Promise<Response[]> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const out: Response[] = [];
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${out.length} of ${count}`)),
      deadlineMs,
    );
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        const end = data.indexOf('\r\n\r\n');
        if (end === -1) return;
        const [statusLine, ...lines] = data.toString('latin1', 0, end).split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const at = line.indexOf(':');
          headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
        }
        const status = Number(statusLine?.split(' ')[1]);
        const noBody = heads[out.length] === true || status === 304;
        const length = noBody ? 0 : Number(headers['content-length'] ?? 0);
        if (data.length < end + 4 + length) return;
        out.push({ status, headers, body: data.subarray(end + 4, end + 4 + length) });
        data = data.subarray(end + 4 + length);
        if (out.length === count) {
          clearTimeout(timer);
          socket.removeListener('data', onData);
          resolve(out);
          return;
        }
      }
    };
    socket.on('data', onData);
  });
}

function open(port: number, options: { allowHalfOpen?: boolean } = {}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', ...options }, () => resolve(socket));
    socket.once('error', reject);
  });
}

const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
const portOf = (address: ReturnType<Server['address']>) =>
  typeof address === 'object' && address ? address.port : 0;
type Server = TestApp['app']['server'];

describe.each(SERVER_MODES)('serving over sockets $mode', ({ env, fastPath }) => {
  let t: TestApp;
  let port: number;
  let asset: string;
  const client = (file: string) => readFileSync(join(t.config.buildDir, 'client', file));

  beforeAll(async () => {
    t = await makeTestApp(env);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    asset = readdirSync(join(t.config.buildDir, 'client/assets')).find((f) => f.endsWith('.js')) ?? '';
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('answers pipelined GETs in order, with the same headers and bytes as the Node path', async () => {
    const socket = await open(port);
    socket.write(
      get('/', 'Accept-Encoding: gzip, br\r\n') +
        get('/about') +
        get(`/assets/${asset}?v=1`, 'Accept-Encoding: gzip\r\n'),
    );
    const [home, about, script] = await readResponses(socket, 3);
    socket.destroy();
    expect(home?.status).toBe(200);
    expect(home?.headers['content-encoding']).toBe('br');
    expect(home?.body.equals(client('index.html.br'))).toBe(true);
    expect(about?.body.equals(client('about/index.html'))).toBe(true);
    expect(script?.headers['content-encoding']).toBe('gzip');
    expect(script?.body.equals(client(`assets/${asset}.gz`))).toBe(true);
    expect(home?.headers['date']).toMatch(/GMT$/);

    const viaNode = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    const strip = (h: Record<string, unknown>) => {
      const copy = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]));
      for (const k of ['date', 'connection', 'keep-alive']) delete copy[k];
      return copy;
    };
    expect(strip(home?.headers ?? {})).toEqual(strip(viaNode.headers));
  });

  it('reassembles a request that arrives a few bytes at a time', async () => {
    const socket = await open(port);
    const bytes = Buffer.from(get('/contact'));
    const answer = readResponses(socket, 1);
    for (let i = 0; i < bytes.length; i += 7) {
      socket.write(bytes.subarray(i, i + 7));
      await new Promise((r) => setTimeout(r, 2));
    }
    const [contact] = await answer;
    socket.destroy();
    expect(contact?.status).toBe(200);
    expect(contact?.body.equals(client('contact/index.html'))).toBe(true);
  });

  it('answers HEAD with the headers alone, and a matching If-None-Match with 304', async () => {
    const socket = await open(port);
    socket.write(`HEAD /about HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const [head] = await readResponses(socket, 1, [true]);
    expect(head?.status).toBe(200);
    expect(Number(head?.headers['content-length'])).toBe(client('about/index.html').length);
    socket.write(get('/about', `If-None-Match: ${head?.headers['etag']}\r\n`) + get('/terms'));
    const [notModified, terms] = await readResponses(socket, 2);
    socket.destroy();
    expect(notModified?.status).toBe(304);
    expect(notModified?.body.length).toBe(0);
    expect(terms?.status).toBe(200);
  });

  it('gives the connection to Node at the first request it does not serve, keeping the order', async () => {
    const socket = await open(port);
    const post =
      'POST /api/send-contact-email HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\n' +
      'Origin: http://localhost:3000\r\nContent-Length: 5\r\n\r\nhello';
    // A static GET, the API, an unknown page and a static GET again, in one write.
    socket.write(get('/') + post + get('/no-such-page') + get('/privacy'));
    const [home, api, missing, privacy] = await readResponses(socket, 4);
    expect(home?.status).toBe(200);
    expect(api?.status).toBe(415);
    expect(api?.headers['content-type']).toContain('application/json');
    expect(missing?.status).toBe(404);
    expect(privacy?.status).toBe(200);
    expect(privacy?.body.equals(client('privacy/index.html'))).toBe(true);
    // Node keeps the connection and answers the next request on it.
    socket.write(get('/readyz'));
    const [ready] = await readResponses(socket, 1);
    socket.destroy();
    expect(ready?.status).toBe(200);
  });

  it('leaves malformed, oversized and HTTP/1.0 requests to Node', async () => {
    const cases: Array<[string, number]> = [
      ['GET / HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['GET /about HTTP/1.0\r\nHost: localhost\r\n\r\n', 200],
      ['GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 200],
    ];
    for (const [request, status] of cases) {
      const socket = await open(port);
      socket.write(request);
      const [answer] = await readResponses(socket, 1);
      socket.destroy();
      expect(answer?.status, request.slice(0, 40)).toBe(status);
    }
  });

  it('closes after a response when the client asks, and on server close', async () => {
    const closing = await open(port);
    const ended = new Promise((r) => closing.once('end', r));
    closing.write(get('/', 'Connection: close\r\n'));
    const [answer] = await readResponses(closing, 1);
    expect(answer?.headers['connection']).toBe('close');
    await ended;
    closing.destroy();

    // An idle keep-alive connection on the fast path does not hold up the server's close.
    const other = await makeTestApp(env);
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const address = other.app.server.address();
    const idle = await open(typeof address === 'object' && address ? address.port : 0);
    idle.write(get('/'));
    await readResponses(idle, 1);
    const idleEnded = new Promise((r) => idle.once('end', r));
    const started = Date.now();
    await other.app.close();
    await idleEnded;
    idle.destroy();
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it(`answers site files ${fastPath ? 'on the fast path' : 'through Node'}`, async () => {
    const socket = await open(port);
    socket.write(get('/about'));
    const [about] = await readResponses(socket, 1);
    socket.destroy();
    expect(about?.status).toBe(200);
    // Node names the keep-alive timeout on every answer; the fast path keeps to the site's headers.
    expect(about?.headers['keep-alive']).toBe(fastPath ? undefined : 'timeout=72');
  });

  it('stays up when a client asks to close and resets the connection at once', async () => {
    const unhandled: unknown[] = [];
    const record = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', record);
    try {
      for (let i = 0; i < 20; i += 1) {
        const socket = await open(port);
        socket.write(get(i % 2 === 0 ? '/' : '/about', 'Connection: close\r\n'));
        socket.resetAndDestroy();
      }
      // Let the resets reach the server's sockets.
      await new Promise((r) => setTimeout(r, 300));
      const after = await open(port);
      after.write(get('/contact'));
      const [contact] = await readResponses(after, 1);
      after.destroy();
      expect(contact?.status).toBe(200);
    } finally {
      process.off('uncaughtException', record);
    }
    expect(unhandled).toEqual([]);
  });

  it('answers a head with bare LF line endings with 400 at once, as Node does', async () => {
    for (const request of [
      'GET / HTTP/1.1\nHost: x\n\n',
      'GET / HTTP/1.1\r\nHost: x\n\n',
      'GET / HTTP/1.1\r\nHost: x\rX: y\r\n',
    ]) {
      const socket = await open(port);
      socket.write(request);
      // Far less than the 30 s a head is waited for.
      const [answer] = await readResponses(socket, 1, [], 3000);
      socket.destroy();
      expect(answer?.status, JSON.stringify(request)).toBe(400);
    }
  });
});

describe('the fast path on a connection it closes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('closes a half-open connection when its timeout passes', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    attachStaticFastPath(server, t.app.site, { keepAliveTimeoutMs: 200, headersTimeoutMs: 200 });
    const serverSockets: Socket[] = [];
    server.on('connection', (socket: Socket) => serverSockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      // The client reads the answer and the server's end, but never closes its own side.
      const socket = await open(portOf(server.address()), { allowHalfOpen: true });
      const ended = new Promise((r) => socket.once('end', r));
      socket.write(get('/about', 'Connection: close\r\n'));
      const [about] = await readResponses(socket, 1);
      await ended;
      expect(about?.headers['connection']).toBe('close');
      const serverSocket = serverSockets[0];
      expect(serverSocket).toBeDefined();
      const closed = await new Promise<boolean>((resolve) => {
        if (serverSocket?.destroyed) resolve(true);
        serverSocket?.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 3000);
      });
      socket.destroy();
      expect(closed).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('parseRequestHead', () => {
  const parse = (text: string) => parseRequestHead(Buffer.from(text, 'latin1'));

  it('reads a plain GET or HEAD whole, and waits for the rest of one cut short', () => {
    expect(parse(get('/about?x=1', 'Accept-Encoding: br\r\nIf-None-Match: "abc"\r\n'))).toEqual({
      kind: 'request',
      length: get('/about?x=1', 'Accept-Encoding: br\r\nIf-None-Match: "abc"\r\n').length,
      head: false,
      target: '/about?x=1',
      acceptEncoding: 'br',
      ifNoneMatch: '"abc"',
      close: false,
    });
    expect(parse('GET / HTTP/1.1\r\nHost: x\r\n')).toEqual({ kind: 'incomplete' });
    expect(parse('GE')).toEqual({ kind: 'incomplete' });
  });

  it('hands over anything else at once', () => {
    for (const text of [
      'POST /api HTTP/1.1\r\n',
      'PUT / HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nBad\u0001: y\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\nX: a\nY: b\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n',
    ])
      expect(parse(text), JSON.stringify(text)).toEqual({ kind: 'handoff' });
  });

  it('hands over a head cut short that can no longer be one it serves, rather than waiting', () => {
    for (const text of [
      'GET / HTTP/1.1\nHost: x\n\n',
      'GET / HTTP/1.1\nHost: x',
      'GET / HTTP/1.1\r\nHost: x\n',
      'GET / HTTP/1.1\r\nHost: x\rY',
      'GET / HTTP/1.0\r\nHost: x\r\n',
    ])
      expect(parse(text), JSON.stringify(text)).toEqual({ kind: 'handoff' });
    expect(parse('GET / HTTP/1.1\r\nHost: x\r')).toEqual({ kind: 'incomplete' });
    expect(parse('GET /about HTTP/1.1\r')).toEqual({ kind: 'incomplete' });
  });
});
