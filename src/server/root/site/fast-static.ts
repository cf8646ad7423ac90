/**
 * The static fast path (decision 012). Each new connection first meets this reader: while its
 * requests are plain `GET`/`HEAD`s of files of the site, it answers them itself with the bytes
 * `StaticSite.rawResponse` made at start, without building Node's request and response objects
 * (about half of the cost of a request). At the first request it does not answer (the API, an
 * unknown path, anything unusual or malformed), it gives the connection, with that request's
 * bytes, to Node's HTTP server, which handles everything on it from then on.
 *
 * It only ever answers a request it has read whole and understood exactly; everything else
 * goes to Node unread, so Node's own parser decides every error and every edge case.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { StaticSite } from './static-files';

/** A request head longer than this is Node's to answer (431). */
const MAX_HEAD_BYTES = 16 * 1024;
/** Stop reading from a client that does not read its answers. */
const HIGH_WATER_BYTES = 256 * 1024;

const REQUEST_LINE = /^(GET|HEAD) (\/[^\s]*) HTTP\/1\.1$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const CRLF_CRLF = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');
const CR = 0x0d;
const LF = 0x0a;

/**
 * True when `data` holds an LF not preceded by CR, or a CR followed by anything but LF (a CR
 * as the last byte may still be followed by its LF).
 */
function hasBareLineBreak(data: Buffer): boolean {
  for (let at = data.indexOf(LF); at !== -1; at = data.indexOf(LF, at + 1)) {
    if (at === 0 || data[at - 1] !== CR) return true;
  }
  for (let at = data.indexOf(CR); at !== -1; at = data.indexOf(CR, at + 1)) {
    if (at + 1 < data.length && data[at + 1] !== LF) return true;
  }
  return false;
}

type Parsed =
  | { kind: 'incomplete' }
  | { kind: 'handoff' }
  | {
      kind: 'request';
      length: number;
      head: boolean;
      target: string;
      acceptEncoding: string;
      ifNoneMatch: string | undefined;
      close: boolean;
    };

/** Reads one request head from the start of `data`, or says why it cannot. Exported for tests. */
export function parseRequestHead(data: Buffer): Parsed {
  // Decided as soon as the method is known: everything but GET and HEAD is Node's.
  const prefix = data.toString('latin1', 0, Math.min(data.length, 5));
  if (!'GET /'.startsWith(prefix) && !'HEAD '.startsWith(prefix)) return { kind: 'handoff' };
  const end = data.indexOf(CRLF_CRLF);
  if (end === -1) {
    // Waiting only makes sense for a head that can still end well: one with a bare LF or CR
    // (which Node refuses with 400 at once), or whose request line is already not one this
    // path serves, goes to Node now rather than when the head timeout fires.
    if (data.length > MAX_HEAD_BYTES || hasBareLineBreak(data)) return { kind: 'handoff' };
    const lineEnd = data.indexOf(CRLF);
    if (lineEnd !== -1 && !REQUEST_LINE.test(data.toString('latin1', 0, lineEnd))) return { kind: 'handoff' };
    return { kind: 'incomplete' };
  }
  if (end > MAX_HEAD_BYTES) return { kind: 'handoff' };
  const lines = data.toString('latin1', 0, end).split('\r\n');
  const first = REQUEST_LINE.exec(lines[0] ?? '');
  if (!first) return { kind: 'handoff' };
  let hosts = 0;
  let acceptEncoding = '';
  let ifNoneMatch: string | undefined;
  let close = false;
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const header = HEADER_LINE.exec(line);
    // `.` and `$` stop at CR and LF: a line with a bare one does not match.
    if (!header) return { kind: 'handoff' };
    const value = header[2] ?? '';
    if (INVALID_VALUE.test(value)) return { kind: 'handoff' };
    switch ((header[1] ?? '').toLowerCase()) {
      case 'host':
        hosts += 1;
        break;
      case 'accept-encoding':
        acceptEncoding = acceptEncoding ? `${acceptEncoding}, ${value}` : value;
        break;
      case 'if-none-match':
        if (ifNoneMatch !== undefined) return { kind: 'handoff' };
        ifNoneMatch = value;
        break;
      case 'connection': {
        const tokens = value
          .toLowerCase()
          .split(',')
          .map((t) => t.trim());
        if (tokens.includes('upgrade')) return { kind: 'handoff' };
        if (tokens.includes('close')) close = true;
        break;
      }
      // A body, an upgrade or an expectation: Node's to handle.
      case 'content-length':
      case 'transfer-encoding':
      case 'upgrade':
      case 'expect':
        return { kind: 'handoff' };
      default:
        break;
    }
  }
  if (hosts !== 1) return { kind: 'handoff' };
  return {
    kind: 'request',
    length: end + CRLF_CRLF.length,
    head: first[1] === 'HEAD',
    target: first[2] ?? '/',
    acceptEncoding,
    ifNoneMatch,
    close,
  };
}

/**
 * Puts the fast path in front of `server`'s own connection handling. Call before `listen`.
 * `keepAliveTimeoutMs` closes a connection idle between requests (or one the fast path ended
 * after `Connection: close` whose client never closes its side) and `headersTimeoutMs` one
 * whose request head does not arrive whole in time, as Node does for its own connections.
 */
export function attachStaticFastPath(
  server: Server,
  site: StaticSite,
  { keepAliveTimeoutMs, headersTimeoutMs }: { keepAliveTimeoutMs: number; headersTimeoutMs: number },
): void {
  const [nodeConnection, ...others] = server.listeners('connection') as Array<(socket: Socket) => void>;
  if (!nodeConnection || others.length > 0) throw new Error('unexpected connection listeners');
  server.removeAllListeners('connection');
  const open = new Set<Socket>();

  server.on('connection', (socket: Socket) => {
    let pending: Buffer | undefined;
    let headTimer: NodeJS.Timeout | undefined;
    open.add(socket);

    const stopHeadTimer = () => {
      if (headTimer) clearTimeout(headTimer);
      headTimer = undefined;
    };
    const detach = () => {
      stopHeadTimer();
      socket.removeListener('data', onData);
      socket.removeListener('timeout', onTimeout);
      socket.removeListener('error', onError);
      socket.removeListener('drain', onDrain);
      socket.removeListener('close', onClose);
      socket.setTimeout(0);
      open.delete(socket);
    };
    const handOff = (data: Buffer) => {
      detach();
      // Node reads these bytes first, as if they had just arrived.
      socket.unshift(data);
      nodeConnection.call(server, socket);
    };
    function onTimeout() {
      socket.destroy();
    }
    function onError() {
      socket.destroy();
    }
    function onDrain() {
      socket.resume();
    }
    function onClose() {
      stopHeadTimer();
      open.delete(socket);
    }
    function onData(chunk: Buffer) {
      let data = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = undefined;
      while (data.length > 0) {
        const parsed = parseRequestHead(data);
        if (parsed.kind === 'incomplete') {
          pending = data;
          headTimer ??= setTimeout(() => socket.destroy(), headersTimeoutMs);
          return;
        }
        stopHeadTimer();
        if (parsed.kind === 'handoff') {
          handOff(data);
          return;
        }
        const response = site.rawResponse(parsed);
        if (!response) {
          handOff(data);
          return;
        }
        data = data.subarray(parsed.length);
        if (parsed.close) {
          // Read nothing more, but keep the error listener (a client that resets now would
          // otherwise raise an unhandled error) and the timeout (a client that never closes
          // its side would otherwise hold the socket open for good).
          stopHeadTimer();
          socket.removeListener('data', onData);
          socket.removeListener('drain', onDrain);
          socket.end(response);
          return;
        }
        socket.write(response);
      }
      if (socket.writableLength > HIGH_WATER_BYTES) socket.pause();
    }

    socket.setTimeout(keepAliveTimeoutMs);
    socket.on('timeout', onTimeout);
    socket.on('error', onError);
    socket.on('drain', onDrain);
    socket.on('close', onClose);
    socket.on('data', onData);
  });

  // Closing the server ends the connections still on the fast path, which sit idle between
  // requests; Node closes its own idle ones. Without this, close would wait for their timeout.
  const close = server.close.bind(server);
  server.close = ((callback?: (err?: Error) => void) => {
    for (const socket of open) socket.end();
    open.clear();
    return close(callback);
  }) as Server['close'];
}
