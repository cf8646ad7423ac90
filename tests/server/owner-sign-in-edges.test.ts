/**
 * Signing in as the owner and as a stranger look the same from outside (decision 031), on
 * PostgreSQL: the same answer, sent before anything is looked up or written, so its time
 * cannot tell an owner's address from another. Proved without timing: the database is held (a
 * lock on the outbox) while the owner asks for a link, and the answer still arrives; the link's
 * e-mail is queued once the hold ends.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_SUPERSEDED, SIGN_IN_SENT, signInLink } from '../../src/server/console/sign-in';
import { type FormsTestApp, makeFormsApp, OWNER, testDrivers, until } from './forms-support';
import { apiCall } from './owner-session';

const drivers = await testDrivers('sign_in_edges');

describe.each(drivers)('the sign-in answer tells nobody who the owner is, on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env);
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  const links = async () =>
    (await t.query<{ n: number }>(`select count(*)::int as n from outbox where kind = 'owner.sign-in'`))[0]!
      .n;

  it('answers an owner and a stranger alike, the owner before the link is written', async () => {
    const before = await links();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHeld = new Promise<void>((resolve) => (holding = resolve));
    const hold = t.app.services.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table outbox in share mode`);
      holding();
      await held;
    });
    await isHeld;

    const bound = new Promise<'held'>((resolve) => setTimeout(() => resolve('held'), 15_000).unref());
    const owner = await Promise.race([
      apiCall(t.app, 'POST', '/api/owner/sign-in', { body: { email: OWNER } }),
      bound,
    ]);
    release();
    await hold;
    expect(owner, 'the owner was answered while nothing could be written').not.toBe('held');
    if (owner === 'held') return;
    const stranger = await apiCall(t.app, 'POST', '/api/owner/sign-in', {
      body: { email: 'stranger@example.org' },
    });

    for (const res of [owner, stranger]) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: SIGN_IN_SENT });
    }
    const names = (res: typeof owner) =>
      Object.keys(res.headers)
        .filter((name) => name !== 'date')
        .sort();
    expect(names(owner)).toEqual(names(stranger));
    expect(owner.headers['content-length']).toBe(stranger.headers['content-length']);

    await until(async () => (await links()) === before + 1);
  });

  /** The token of every sign-in link queued so far, oldest first. */
  const mailedTokens = async () =>
    (
      await t.query<{ message: unknown }>(
        `select message from outbox where kind = 'owner.sign-in' order by id`,
      )
    ).map((row) => {
      const text = typeof row.message === 'string' ? row.message : JSON.stringify(row.message);
      return /\/owner\/sign-in\?token=([\w.-]+)/.exec(text)![1]!;
    });
  const useLink = (token: string) => apiCall(t.app, 'POST', '/api/owner/sign-in/link', { body: { token } });

  it('ends every older link still unused when a new one is e-mailed, but not a link made on the server', async () => {
    const made = await signInLink(t.config, t.app.services.links, OWNER);
    const before = (await mailedTokens()).length;
    for (let i = 0; i < 2; i += 1) {
      await apiCall(t.app, 'POST', '/api/owner/sign-in', { body: { email: OWNER } });
      await until(async () => (await mailedTokens()).length === before + i + 1);
    }
    const [older, newer] = (await mailedTokens()).slice(before);
    const refused = await useLink(older!);
    expect(refused.statusCode).toBe(410);
    expect(refused.json()).toEqual({ error: LINK_SUPERSEDED });
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await useLink(newer!)).statusCode).toBe(200);
    // Made by `npm run owner:link` before both: still good, once.
    expect((await useLink(new URL(made).searchParams.get('token')!)).statusCode).toBe(200);
  });
});
