/**
 * The embedded database's thread started while the server's code loads (decision 051): started
 * only for an existing database of the embedded kind and when not switched off; adopted by
 * `openDatabase` for the same folder, ended before another folder opens, closed when the server
 * stops before adopting it, and never holding a process open that adopted nothing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kit/db/client';
import {
  claimEarly,
  embeddedSettings,
  endEarly,
  startEarly,
  type StartedThread,
} from '../../src/server/kit/db/pglite-early';

const SLOT = Symbol.for('sterling-sats.early-database');
const early = () => (globalThis as { [SLOT]?: StartedThread })[SLOT];
const exited = (worker: Worker) => new Promise<number>((resolve) => worker.once('exit', resolve));

/** A DATA_DIR holding a migrated embedded database, closed. */
async function existingDataDir(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pglite-early-'));
  await (await openDatabase({ dataDir })).close();
  return dataDir;
}

describe('the database thread started early', () => {
  let dataDir: string;
  let otherDataDir: string;

  beforeAll(async () => {
    [dataDir, otherDataDir] = await Promise.all([existingDataDir(), existingDataDir()]);
  });
  afterEach(async () => {
    await endEarly();
  });

  it('is not started when switched off, with DATABASE_URL, or before the database exists', async () => {
    expect(startEarly({ DATA_DIR: dataDir, DATABASE_EARLY_START: 'false' })).toBeUndefined();
    expect(startEarly({ DATA_DIR: dataDir, DATABASE_EARLY_START: ' Off ' })).toBeUndefined();
    expect(startEarly({ DATA_DIR: dataDir, DATABASE_URL: 'postgres://127.0.0.1/test' })).toBeUndefined();
    const fresh = mkdtempSync(join(tmpdir(), 'pglite-early-fresh-'));
    expect(startEarly({ DATA_DIR: fresh })).toBeUndefined();
    expect(early()).toBeUndefined();
    expect(await claimEarly(embeddedSettings(join(fresh, 'pglite')))).toBeUndefined();
  });

  it('is adopted by openDatabase for its folder: the same thread serves, and ends with the database', async () => {
    expect(startEarly({ DATA_DIR: dataDir, DATABASE_URL: '  ' })).toBe(join(dataDir, 'pglite'));
    const started = early()!;
    const ended = exited(started.worker);
    const database = await openDatabase({ dataDir });
    expect(early()).toBeUndefined();
    await database.db.execute(sql`select 1`);
    await database.close();
    // The thread npm start began is the one the database closed: none other was opened.
    expect(typeof (await ended)).toBe('number');
  });

  it('is ended, once its start has settled, before a database in another folder opens', async () => {
    startEarly({ DATA_DIR: dataDir });
    const ended = exited(early()!.worker);
    const database = await openDatabase({ dataDir: otherDataDir });
    await ended;
    expect(early()).toBeUndefined();
    await database.db.execute(sql`select 1`);
    await database.close();
  });

  it('is ended when the server stops before adopting it, and the folder opens again afterwards', async () => {
    startEarly({ DATA_DIR: dataDir });
    const ended = exited(early()!.worker);
    await endEarly();
    await ended;
    expect(early()).toBeUndefined();
    const database = await openDatabase({ dataDir });
    await database.db.execute(sql`select 1`);
    await database.close();
  });

  it('does not hold open a process that never adopts it, and the folder survives its end', async () => {
    const source = JSON.stringify(new URL('../../src/server/kit/db/pglite-early.ts', import.meta.url).href);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const m = await import(${source}); console.log(m.startEarly(process.env));`,
      ],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(out.trim()).toBe(join(dataDir, 'pglite'));
    expect(code).toBe(0);
    const database = await openDatabase({ dataDir });
    await database.db.execute(sql`select 1`);
    await database.close();
  });
});
