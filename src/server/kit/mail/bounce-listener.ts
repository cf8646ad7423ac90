/**
 * The inbound SMTP listener that receives what relays send back to the VERP envelope senders of
 * visitor e-mails (decision 045; the addresses are ./verp.ts, the reading of each message
 * ./bounces.ts). It is the MX of the bounce domain and nothing else: a recipient is accepted only
 * when it is a well-formed VERP address of that domain whose tag verifies (any other: 550, so it
 * relays nothing and a guessed address learns nothing), a message over the size limit is refused
 * (552), the connections are limited, there is no AUTH, and STARTTLS is not offered (a relay then
 * delivers in the clear, as it does to any MX without it). A message accepted is acted on before
 * it is answered: if the database does not answer, the relay is told to try again later (451).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { recordReport, reportVerdict, type ReportContext } from './bounces';
import { verpRowId } from './verp';

/** A bounce or a complaint is a few kilobytes with the returned message's headers; 256 KiB is ample. */
export const BOUNCE_MAX_BYTES = 256 * 1024;
/** Relays open one or two connections at a time; more wait for a free one (421, try again). */
export const BOUNCE_MAX_CLIENTS = 20;

export type BounceListenerOptions = ReportContext & {
  /** 0 picks a free port (tests). */
  port: number;
  host: string;
  /** The bounce domain (BOUNCE_DOMAIN): the only domain whose recipients are accepted. */
  domain: string;
  maxBytes?: number;
  maxClients?: number;
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

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'ERROR';
}

export async function startBounceListener(options: BounceListenerOptions): Promise<BounceListener> {
  const { domain, secret, log } = options;
  const maxBytes = options.maxBytes ?? BOUNCE_MAX_BYTES;
  const rowOf = (address: string) => verpRowId(secret, domain, address);

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
    onRcptTo(address, _session, callback) {
      if (rowOf(address.address) === undefined) {
        // Never the address: a log holds ids and codes only.
        log.debug('bounce listener refused a recipient');
        callback(smtpError(550, 'No such recipient here'));
        return;
      }
      callback();
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
        const rows = session.envelope.rcptTo
          .map((r) => rowOf(r.address))
          .filter((id): id is number => id !== undefined);
        void (async () => {
          const verdict = await reportVerdict(Buffer.concat(chunks));
          for (const rowId of new Set(rows)) await recordReport(options, rowId, verdict);
        })().then(
          () => callback(),
          (error: unknown) => {
            log.warn({ code: codeOf(error) }, 'returned e-mail not recorded: the relay will try again');
            callback(smtpError(451, 'Try again later'));
          },
        );
      });
    },
  });
  // A client's broken connection reaches here too: logged by its code, the listener goes on.
  server.on('error', (error) => log.debug({ code: codeOf(error) }, 'bounce listener connection error'));

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
