/**
 * The inbound SMTP listener that receives what relays send back to the VERP envelope senders of
 * visitor e-mails (decision 045; the addresses are ./verp.ts, the reading of each message
 * ./bounces.ts). It is the MX of the bounce domain and nothing else: a recipient is accepted only
 * when it is a well-formed VERP address of that domain whose tag verifies (any other: 550, so it
 * relays nothing and a guessed address learns nothing), a message over the size limit is refused
 * (552), the connections are limited (in all, and per client address), a session that names
 * three unknown recipients is closed, there is no AUTH, and STARTTLS is not offered (a relay then
 * delivers in the clear, as it does to any MX without it). A message accepted is acted on before
 * it is answered: if the database does not answer, the relay is told to try again later (451).
 * It also takes the messages sent to a newsletter's List-Unsubscribe mailto (decision 046).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { recordReport, reportVerdict, type ReportContext } from './bounces';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows';
import { errorCode } from '../log-safe';
import { parseVerp, unsubscribeSubject, verpMatches } from './verp';

/** A bounce or a complaint is a few kilobytes with the returned message's headers; 256 KiB is ample. */
export const BOUNCE_MAX_BYTES = 256 * 1024;
/** Relays open one or two connections at a time; more wait for a free one (421, try again). */
export const BOUNCE_MAX_CLIENTS = 20;
/** Connections at once from one address: one client cannot take every slot. */
export const BOUNCE_MAX_CLIENTS_PER_ADDRESS = 4;
/** Recipients refused in one session before it is closed (421): a guesser gets few tries. */
export const BOUNCE_MAX_REFUSED_RECIPIENTS = 3;

export type BounceListenerOptions = ReportContext & {
  /** 0 picks a free port (tests). */
  port: number;
  host: string;
  /** The bounce domain (BOUNCE_DOMAIN): the only domain whose recipients are accepted. */
  domain: string;
  maxBytes?: number;
  maxClients?: number;
  /**
   * A message to an unsubscribe address of the bounce domain (./verp.ts, `unsubscribeAddress`: the
   * mailto of a newsletter's List-Unsubscribe, decision 046) unsubscribes the reader it names,
   * whatever the message says. Absent: such addresses are refused like any unknown one.
   */
  onUnsubscribe?: (subject: string) => Promise<void>;
};

export type BounceListener = {
  /** The port it listens on. */
  port: number;
  /** Stops accepting; the sessions under way get a few seconds to end. */
  close(): Promise<void>;
};

function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startBounceListener(options: BounceListenerOptions): Promise<BounceListener> {
  const { domain, secret, log } = options;
  const maxBytes = options.maxBytes ?? BOUNCE_MAX_BYTES;
  /** The outbox row a recipient names: a well-formed VERP address whose tag is its row's. */
  async function rowOf(address: string): Promise<number | undefined> {
    const parsed = parseVerp(domain, address);
    if (!parsed) return undefined;
    const [row] = rowsOf<{ to_address: string }>(
      await options.db.execute(sql`select to_address from outbox where id = ${parsed.rowId}`),
    );
    return row && verpMatches(secret, parsed.rowId, row.to_address, parsed.tag) ? parsed.rowId : undefined;
  }
  /** The rows each session's recipients named, found at RCPT TO. */
  const rowsNamed = new WeakMap<object, Set<number>>();
  /** The readers each session's unsubscribe recipients named. */
  const unsubscribing = new WeakMap<object, Set<string>>();
  /** An unsubscribe address of the bounce domain whose tag verifies: the reader it names. */
  const unsubscribeOf = (address: string) =>
    options.onUnsubscribe ? unsubscribeSubject(secret, domain, address) : undefined;
  const perAddress = new Map<string, number>();
  const refused = new WeakMap<object, number>();
  /** The sessions counted in `perAddress` (a refused connection is closed too, and never was). */
  const counted = new WeakSet<object>();

  const server = new SMTPServer({
    name: domain,
    logger: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    size: maxBytes,
    rejectOversized: true,
    maxClients: options.maxClients ?? BOUNCE_MAX_CLIENTS,
    // A single report needs one recipient; a relay may group a few.
    maxRecipients: 10,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    onConnect(session, callback) {
      const from = session.remoteAddress;
      const open = perAddress.get(from) ?? 0;
      if (open >= BOUNCE_MAX_CLIENTS_PER_ADDRESS) {
        callback(smtpError(421, 'Too many connections from your address, try again later'));
        return;
      }
      perAddress.set(from, open + 1);
      counted.add(session);
      callback();
    },
    onClose(session) {
      if (!counted.has(session)) return;
      counted.delete(session);
      const open = (perAddress.get(session.remoteAddress) ?? 1) - 1;
      if (open > 0) perAddress.set(session.remoteAddress, open);
      else perAddress.delete(session.remoteAddress);
    },
    onMailFrom(_address, session, callback) {
      // A new transaction names its rows afresh (after a RSET too).
      rowsNamed.delete(session);
      unsubscribing.delete(session);
      callback();
    },
    onRcptTo(address, session, callback) {
      const reader = unsubscribeOf(address.address);
      if (reader) {
        unsubscribing.set(session, (unsubscribing.get(session) ?? new Set<string>()).add(reader));
        callback();
        return;
      }
      rowOf(address.address).then(
        (rowId) => {
          if (rowId === undefined) {
            // Never the address: a log holds ids and codes only.
            log.debug('bounce listener refused a recipient');
            const count = (refused.get(session) ?? 0) + 1;
            refused.set(session, count);
            callback(
              count >= BOUNCE_MAX_REFUSED_RECIPIENTS
                ? smtpError(421, 'Too many unknown recipients, closing')
                : smtpError(550, 'No such recipient here'),
            );
            return;
          }
          const named = rowsNamed.get(session) ?? new Set<number>();
          named.add(rowId);
          rowsNamed.set(session, named);
          callback();
        },
        (error: unknown) => {
          log.warn({ code: errorCode(error) }, 'bounce recipient not checked: the relay will try again');
          callback(smtpError(451, 'Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Past the limit the rest is read and dropped: the message is refused at its end.
        if (bytes <= maxBytes) chunks.push(chunk);
      });
      stream.on('error', () => {}); // the relay went away mid-message: nothing was accepted
      stream.on('end', () => {
        if (stream.sizeExceeded || bytes > maxBytes) {
          log.info({ bytes }, 'returned e-mail over the size limit: refused');
          callback(smtpError(552, 'Message too big'));
          return;
        }
        const rows = [...(rowsNamed.get(session) ?? [])];
        const readers = [...(unsubscribing.get(session) ?? [])];
        // The next transaction of the session names its own.
        rowsNamed.delete(session);
        unsubscribing.delete(session);
        void (async () => {
          for (const reader of readers) await options.onUnsubscribe?.(reader);
          if (readers.length > 0) log.info({ readers: readers.length }, 'unsubscribed by e-mail');
          if (rows.length === 0) return;
          const verdict = await reportVerdict(Buffer.concat(chunks));
          for (const rowId of rows) await recordReport(options, rowId, verdict);
        })().then(
          () => callback(),
          (error: unknown) => {
            log.warn({ code: errorCode(error) }, 'returned e-mail not recorded: the relay will try again');
            callback(smtpError(451, 'Try again later'));
          },
        );
      });
    },
  });
  // A client's broken connection reaches here too: logged by its code, the listener goes on.
  server.on('error', (error) => log.debug({ code: errorCode(error) }, 'bounce listener connection error'));

  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    server.server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.server.off('error', failed);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ port }, 'bounce listener started');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
