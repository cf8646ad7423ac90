/**
 * PGlite in its worker thread (decision 014): what drizzle relies on crosses the thread intact.
 * Statements run in order, a transaction holds the database until it ends, a failure rolls
 * back, errors keep Postgres' fields but never the values, and a closed database says so.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inBackground } from '../../src/server/kit/db/lanes';
import { openPgliteThread, type PgliteThread } from '../../src/server/kit/db/pglite-thread';

const settings = (dir: string) => ({ dir, postgresqlconf: ['shared_buffers = 8MB'] });

describe('PGlite in a worker thread', () => {
  let db: PgliteThread;

  beforeAll(async () => {
    db = await openPgliteThread(settings(join(mkdtempSync(join(tmpdir(), 'pglite-thread-')), 'db')));
    await db.exec(
      'create table notes (id int primary key, body text not null, at timestamptz default now())',
    );
  });
  afterAll(async () => {
    await db.close();
  });

  it('answers queries with rows, in either row mode, and keeps the types asked for as text', async () => {
    await db.query('insert into notes (id, body) values ($1, $2), ($3, $4)', [1, 'one', 2, 'two']);
    const objects = await db.query<{ id: number; body: string }>('select id, body from notes order by id');
    expect(objects.rows).toEqual([
      { id: 1, body: 'one' },
      { id: 2, body: 'two' },
    ]);
    const arrays = await db.query<unknown[]>('select id, at from notes where id = $1', [1], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows[0]![0]).toBe(1);
    expect(typeof arrays.rows[0]![1]).toBe('string');
    const dates = await db.query<{ at: unknown }>('select at from notes where id = 1');
    expect(dates.rows[0]!.at).toBeInstanceOf(Date);
  });

  it('sends a background statement only when no other is in flight: a visitor goes before an export read ahead', async () => {
    const done: string[] = [];
    const run = (name: string, sql: string) =>
      db.query(sql).then(() => {
        done.push(name);
      });
    const first = run('first', 'select pg_sleep(0.2)');
    // Asked for before the visitor's, the background statement still goes after it.
    const background = inBackground(() => run('background', 'select 1'));
    const visitor = run('visitor', 'select 2');
    await Promise.all([first, background, visitor]);
    expect(done).toEqual(['first', 'visitor', 'background']);
    // With nothing in flight, it goes at once.
    await inBackground(() => run('alone', 'select 3'));
    expect(done.at(-1)).toBe('alone');
  });

  it("passes Postgres' error fields across, never the values of the statement", async () => {
    const secret = 'sentinel-7f3a9c';
    const error = await db.query('insert into notes (id, body) values ($1, $2)', [1, secret]).then(
      () => undefined,
      (e: unknown) => e as Error & Record<string, unknown>,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error!.code).toBe('23505');
    expect(error!.constraint).toBe('notes_pkey');
    expect(JSON.stringify({ ...error, message: error!.message })).not.toContain(secret);
  });

  it('commits a transaction that returns, and rolls back one that throws', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (10, $1)', ['kept']);
      return 'done';
    });
    expect(value).toBe('done');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes (id, body) values (11, $1)', ['dropped']);
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into notes (id, body) values (12, $1)', ['rolled back']);
        await tx.rollback();
      }),
    ).resolves.toBeUndefined();
    const ids = await db.query<{ id: number }>('select id from notes where id >= 10 order by id');
    expect(ids.rows.map((r) => r.id)).toEqual([10]);
  });

  it('holds the database for an open transaction: a statement outside waits for its end', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('insert into notes (id, body) values (20, $1)', ['inside']);
      outside = db
        .query<{ n: number }>('select count(*)::int as n from notes where id = 20')
        .then((r) => order.push(`outside saw ${r.rows[0]!.n}`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('inside ends');
    });
    await outside;
    expect(order).toEqual(['inside ends', 'outside saw 1']);
  });

  it('refuses every call once closed, with a clear error', async () => {
    const other = await openPgliteThread(settings(join(mkdtempSync(join(tmpdir(), 'pglite-thread-')), 'db')));
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow('The database is closed.');
    await expect(other.close()).resolves.toBeUndefined();
  });

  it('fails to open when the data folder cannot be used', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pglite-thread-')), 'not-a-folder');
    writeFileSync(file, 'x');
    await expect(openPgliteThread(settings(file))).rejects.toThrow();
  });
});
