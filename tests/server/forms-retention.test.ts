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
} from './forms-support';

const pgUnavailable = await postgresUnavailableReason();

for (const driver of ['pglite', 'postgres'] as const) {
  describe.skipIf(driver === 'postgres' && Boolean(pgUnavailable))(`retention on ${driver}`, () => {
    let t: FormsTestApp;
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await t?.app.close();
      await drop?.();
    });

    it('clears the hashed address of submissions older than a day and keeps the submissions', async () => {
      const env: Record<string, string> = {};
      if (driver === 'postgres') {
        const database = await createTestDatabase('retention');
        env.DATABASE_URL = database.url;
        drop = database.drop;
      }
      t = await makeFormsApp(env);
      const old = (await t.post(bodies.contact())).json() as { id: string };
      const fresh = (await t.post(bodies.contact({ email: 'grace@example.org' }))).json() as { id: string };
      await t.query(
        `update submissions set received_at = now() - interval '25 hours' where id = '${old.id}'`,
      );

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
      expect(
        await t.query(`select key from mail_throttle where key like 'recipient:%' order by key`),
      ).toEqual([{ key: 'recipient:new' }]);
      expect(await t.query(`select token_id from used_tokens order by token_id`)).toEqual([
        { token_id: 'live' },
      ]);
    });
  });

  describe.skipIf(driver === 'postgres' && Boolean(pgUnavailable))(`a sweep at shutdown on ${driver}`, () => {
    it('is finished before the database closes: it clears what it found and logs no failure', async () => {
      const env: Record<string, string> = {};
      let dropDatabase: (() => Promise<void>) | undefined;
      if (driver === 'postgres') {
        const database = await createTestDatabase('retention_close');
        env.DATABASE_URL = database.url;
        dropDatabase = database.drop;
      }
      const { lines, logger } = logCapture();
      const app = await makeFormsApp(env, { logger });
      try {
        const old = (await app.post(bodies.contact())).json() as { id: string };
        await app.query(
          `update submissions set received_at = now() - interval '25 hours' where id = '${old.id}'`,
        );
        // On Postgres the sweep is held at its second statement until the app has begun to close.
        let blocker: pg.Client | undefined;
        if (env.DATABASE_URL) {
          blocker = new pg.Client({ connectionString: env.DATABASE_URL });
          await blocker.connect();
          await blocker.query('begin; lock table mail_throttle in access exclusive mode');
        }
        const sweep = app.app.services.retention.run();
        const closed = app.app.close();
        if (blocker) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          await blocker.query('commit');
          await blocker.end();
        }
        await closed;
        expect(await sweep).toBe(1);
        expect(lines.join('')).not.toContain('retention sweep failed');
      } finally {
        await dropDatabase?.();
      }
    });
  });
}
