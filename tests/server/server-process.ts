/**
 * The real server as its own process (src/server/root/main.ts through tsx), for the tests that
 * kill it or run two: started on a free loopback port with the tests' secret, on the database of
 * its DATA_DIR (databases.ts) unless `env` names one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from './databases';
import { SECRET } from './forms-support';
import { toSink } from './log-sink';

export type SpawnedServer = {
  child: ChildProcess;
  /** The site's URL once it says it is ready; rejects if the process exits first or takes 3 minutes. */
  ready: Promise<string>;
};

export async function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  // Never the default ./data: files running side by side would share it.
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'server-process-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/root/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      APP_SECRET: SECRET,
      ...(await withDatabase({ ...env, DATA_DIR: dataDir }, dataDir)),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    // A bound, not an expectation: a loaded machine may take a minute and more to start it.
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 180_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      toSink(chunk);
      out += String(chunk);
      const m = /Site ready at (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!.replace('localhost', '127.0.0.1'));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += String(chunk);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${out}`));
    });
  });
  // A test that kills the process before it is ready need not wait for `ready`.
  ready.catch(() => {});
  return { child, ready };
}

/** Starts the server and waits until it is ready. */
export async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const server = await spawnServer(env);
  return { child: server.child, url: await server.ready };
}

/** Resolves once the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((r) => child.once('exit', () => r()));
}
