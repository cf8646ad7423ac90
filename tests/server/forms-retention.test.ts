/** The privacy notice promises the hashed client address is gone within 24 hours: the sweeper keeps that promise. */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bodies,
  createTestDatabase,
  logCapture,
  makeFormsApp,
  postgresUnavailableReason,
  type FormsTestApp,
  until,
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();

describe.skipIf(Boolean(pgUnavailable))('retention on postgres', () => {
  let t: FormsTestApp;
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('clears the hashed address of submissions older than a day and keeps the submissions', async () => {
    const database = await createTestDatabase('retention');
    drop = database.drop;
    t = await makeFormsApp({ DATABASE_URL: database.url });
    const old = (await t.post(bodies.contact())).json() as { id: string };
    const fresh = (await t.post(bodies.contact({ email: 'grace@example.org' }))).json() as { id: string };
    await t.query(`update submissions set received_at = now() - interval '25 hours' where id = '${old.id}'`);

    expect(await t.app.services.retention.run()).toBe(1);

    const rows = await t.query<{ id: string; ip_hash: string | null }>(
      `select id, ip_hash from submissions where id in ('${old.id}', '${fresh.id}')`,
    );
    expect(rows.find((r) => r.id === old.id)?.ip_hash).toBeNull();
    expect(rows.find((r) => r.id === fresh.id)?.ip_hash).toMatch(/\S/);
    expect(await t.app.services.retention.run()).toBe(0);
  });

  it('drops mail marks past their day and used tokens past their expiry, and keeps the rest', async () => {
    await t.query(`insert into mail_throttle (key, last_at) values
        ('recipient:old', now() - interval '25 hours'), ('recipient:new', now() - interval '23 hours')`);
    await t.query(`insert into used_tokens (token_id, purpose, expires_at) values
        ('expired', 'x', now() - interval '1 minute'), ('live', 'x', now() + interval '1 day')`);
    await t.app.services.retention.run();
    expect(await t.query(`select key from mail_throttle where key like 'recipient:%' order by key`)).toEqual([
      { key: 'recipient:new' },
    ]);
    expect(await t.query(`select token_id from used_tokens order by token_id`)).toEqual([
      { token_id: 'live' },
    ]);
  });
});

describe.skipIf(Boolean(pgUnavailable))('a sweep at shutdown on postgres', () => {
  it('is finished before the database closes: it clears what it found and logs no failure', async () => {
    const database = await createTestDatabase('retention_close');
    const { lines, logger } = logCapture();
    const app = await makeFormsApp({ DATABASE_URL: database.url }, { logger });
    try {
      const old = (await app.post(bodies.contact())).json() as { id: string };
      await app.query(
        `update submissions set received_at = now() - interval '25 hours' where id = '${old.id}'`,
      );
      // The sweep is held at its second statement until the app has begun to close.
      const blocker = new pg.Client({ connectionString: database.url });
      await blocker.connect();
      await blocker.query('begin; lock table mail_throttle in access exclusive mode');
      const sweep = app.app.services.retention.run();
      const closed = app.app.close();
      // Let it go once it waits on the lock and the app is closing.
      await until(
        async () =>
          app.app.closing() &&
          (
            await blocker.query(
              `select 1 from pg_locks where not granted and relation = 'mail_throttle'::regclass`,
            )
          ).rowCount,
      );
      await blocker.query('commit');
      await blocker.end();
      await closed;
      expect(await sweep).toBe(1);
      expect(lines.join('')).not.toContain('retention sweep failed');
    } finally {
      await database.drop();
    }
  });
});
