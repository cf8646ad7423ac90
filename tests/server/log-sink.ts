/**
 * The server suite's log sink (decision 033): every app the server tests build logs, at trace, to
 * a file of this run (one per test process), and so do the servers they start as processes. The
 * suite's global teardown (log-sink-setup.ts) reads them all and fails the run if any line holds
 * an e-mail address: the logs carry record ids, codes and counts, never a person's address.
 */
import { openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { requestSerializers } from '../../src/server/root/app';

declare module 'vitest' {
  export interface ProvidedContext {
    serverLogDir: string;
  }
}

let descriptor: number | undefined | null;

/** This process's sink file, opened on first use; none when the run has no sink (a unit run). */
function sink(): number | undefined {
  if (descriptor !== undefined) return descriptor ?? undefined;
  let dir: string | undefined;
  try {
    dir = inject('serverLogDir');
  } catch {
    dir = undefined;
  }
  descriptor = dir ? openSync(join(dir, `server-${process.pid}.log`), 'a') : null;
  return descriptor ?? undefined;
}

/** Writes `text` to the sink (synchronously: a test process may end at any time). */
export function toSink(text: string | Buffer): void {
  const fd = sink();
  if (fd !== undefined) writeSync(fd, typeof text === 'string' ? Buffer.from(text) : text);
}

/** The stream an app's logger writes to: the sink, and `also` when given. */
export function sinkStream(also?: (line: string) => void): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      toSink(chunk as Buffer);
      also?.(String(chunk));
      cb();
    },
  });
}

/** The logger of every app a server test builds without one of its own. */
export function suiteLogger() {
  return sink() === undefined
    ? false
    : { level: 'trace', stream: sinkStream(), serializers: requestSerializers };
}
