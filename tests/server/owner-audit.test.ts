/**
 * The audit log in words (decision 032), on PostgreSQL: each entry says who did what
 * ("Ada confirmed booking BK-…") by the name the configuration gives, or the address's local part;
 * the log is filtered by person, kind and UK dates, and a filter it cannot read is a 400 naming
 * it; a helper reads only their own entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_OWN_ONLY, type AuditPage } from '../../src/contract/audit';
import { audit } from '../../src/server/kit/audit';
import { type FormsTestApp, bodies, bookableDate, makeFormsApp, OWNER, testDrivers } from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const HELPER = 'ada@sterling.test';
const PARTNER = 'grace@sterling.test';

describe.each(await testDrivers('audit'))('the audit log on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let helper: OwnerCall;
  let reference: string;
  let submissionId: string;
  let articleId: string;
  const GONE = '0f0e0d0c-0b0a-4909-8807-060504030201';

  const page = async (call: OwnerCall, query = '') => {
    const res = await call('GET', `/api/owner/audit${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AuditPage;
  };

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp({
      OWNER_NAME: 'Sam',
      OWNER_EMAILS: PARTNER,
      HELPER_EMAILS: `Ada Lovelace <${HELPER}>`,
      ...db.env,
    });
    owner = asOwner(t.app, await signInOwner(t.app));
    helper = asOwner(t.app, await signInOwner(t.app, HELPER));

    // The helper answers a booking and moves a lead to spam; the owner exports.
    const email = `booker.${Date.now()}@example.org`;
    const booked = await t.post(bodies.booking(bookableDate(10), { email }));
    expect(booked.statusCode).toBe(200);
    reference = (booked.json() as { reference: string }).reference;
    const list = (await helper('GET', '/api/owner/bookings?view=requested')).json() as {
      items: { id: string; email: string }[];
    };
    const booking = list.items.find((b) => b.email === email)!;
    const confirmed = await helper('POST', `/api/owner/bookings/${booking.id}/confirm`, {
      body: { choice: 1, start: '09:30' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const sent = await t.post(
      bodies.contact({ email: `lead.${Date.now()}@example.org`, firstName: 'Mary', lastName: 'Jackson' }),
    );
    submissionId = (sent.json() as { id: string }).id;
    expect((await helper('POST', `/api/owner/submissions/${submissionId}/mark-spam`)).statusCode).toBe(200);
    // An article the owner writes, named by its title; one since gone, by its id.
    const article = await owner('POST', '/api/owner/articles', {
      body: {
        title: 'Custody   for advisers',
        summary: 'Who holds the keys.',
        slug: `custody-${Date.now()}`,
        date: '2026-06-01',
        taxYear: '',
        body: 'Some words.',
      },
    });
    expect(article.statusCode, article.body).toBe(200);
    articleId = (article.json() as { id: string }).id;
    await audit(t.app.services.database.db, OWNER, 'article.cover', GONE);
    await audit(t.app.services.database.db, OWNER, 'availability.change', undefined, { changed: 'days off' });
    expect((await owner('GET', '/api/owner/exports/subscribers.csv')).statusCode).toBe(200);
    // A partner no longer configured, and the site itself.
    await audit(t.app.services.database.db, 'former.partner@sterling.test', 'booking.decline', 'BK-OLD123');
    await audit(t.app.services.database.db, 'system', 'digest.spam', undefined, { held: 3 });
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('says who did what in words, by the configured name or the address’s local part', async () => {
    const { items, people } = await page(owner);
    const sentences = items.map((e) => e.sentence);
    expect(reference).toMatch(/^BK-/);
    expect(sentences).toContain(`Ada Lovelace confirmed booking ${reference}`);
    expect(sentences).toContain('Ada Lovelace moved submission from Mary Jackson to spam');
    expect(sentences).toContain('Sam wrote article “Custody for advisers”');
    expect(sentences).toContain('Sam set the cover image of article 0f0e0d0c');
    expect(items.find((e) => e.action === 'article.create')).toMatchObject({ target: articleId });
    expect(sentences).toContain('Ada Lovelace signed in with an e-mail link');
    expect(sentences).toContain('Sam exported the newsletter subscribers as CSV');
    expect(sentences).toContain('Former.partner declined booking BK-OLD123');
    expect(sentences).toContain('The site sent the daily spam digest (3 held)');
    const confirm = items.find((e) => e.action === 'booking.confirm')!;
    expect(confirm).toMatchObject({
      actor: HELPER,
      who: 'Ada Lovelace',
      kind: 'bookings',
      target: reference,
    });
    expect(people).toEqual([
      { email: OWNER, name: 'Sam', role: 'owner' },
      { email: PARTNER, name: 'Grace', role: 'owner' },
      { email: HELPER, name: 'Ada Lovelace', role: 'helper' },
    ]);
  });

  it('filters by person, by kind and by UK dates', async () => {
    const byHelper = await page(owner, `?person=${encodeURIComponent(HELPER.toUpperCase())}`);
    expect(byHelper.items.length).toBeGreaterThanOrEqual(3);
    expect(byHelper.items.every((e) => e.actor === HELPER)).toBe(true);

    const bookings = await page(owner, '?kind=bookings');
    expect(bookings.items.map((e) => e.action).sort()).toEqual([
      'availability.change',
      'booking.confirm',
      'booking.decline',
    ]);
    const security = await page(owner, '?kind=security');
    expect(security.items.length).toBeGreaterThan(0);
    expect(security.items.every((e) => /^(sign-in|sign-out|passkey)/.test(e.action))).toBe(true);

    const both = await page(owner, `?person=${HELPER}&kind=leads`);
    expect(both.items.map((e) => e.action)).toEqual(['submission.mark-spam']);
    expect((await page(owner, '?person=system')).items.map((e) => e.action)).toEqual(['digest.spam']);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const all = (await page(owner)).items.length;
    expect((await page(owner, `?from=${today}&to=${today}`)).items.length).toBe(all);
    expect((await page(owner, '?to=2020-01-01')).items).toEqual([]);
    expect((await page(owner, '?from=2099-01-01')).items).toEqual([]);
  });

  it('refuses a filter it cannot read with a 400 that names it, never a 500', async () => {
    const cases: [string, string][] = [
      ['?kind=nonsense', 'The kind filter is not valid.'],
      ['?person=not-an-address', 'The person filter is not valid.'],
      [`?person=${'a'.repeat(250)}@example.org`, 'The person filter is not valid.'],
      ['?from=0000-01-01', 'The from date filter is not valid.'],
      ['?to=2026-02-31', 'The to date filter is not valid.'],
      ['?from=yesterday', 'The from date filter is not valid.'],
      ['?from=2026-03-02&to=2026-03-01', 'The from date is after the to date.'],
      ['?after=abc', 'The page is not valid.'],
      ['?after=99999999999999999999', 'The page is not valid.'],
    ];
    for (const [query, error] of cases) {
      const res = await owner('GET', `/api/owner/audit${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ error });
    }
  });

  it('shows a helper only their own entries, and refuses them anyone else’s', async () => {
    const own = await page(helper);
    expect(own.items.length).toBeGreaterThan(0);
    expect(own.items.every((e) => e.actor === HELPER)).toBe(true);
    expect(own.people).toEqual([{ email: HELPER, name: 'Ada Lovelace', role: 'helper' }]);
    expect((await page(helper, `?person=${HELPER}&kind=bookings`)).items.map((e) => e.action)).toEqual([
      'booking.confirm',
    ]);
    for (const person of [OWNER, 'system']) {
      const res = await helper('GET', `/api/owner/audit?person=${person}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: AUDIT_OWN_ONLY });
    }
  });

  it('pages newest first by the last entry’s id', async () => {
    for (let i = 0; i < 55; i += 1) {
      await audit(t.app.services.database.db, PARTNER, 'delivery.retry', i);
    }
    const first = await page(owner, `?person=${PARTNER}`);
    expect(first.items).toHaveLength(50);
    expect(first.items[0]!.sentence).toBe('Grace sent e-mail 54 again');
    const second = await page(owner, `?person=${PARTNER}&after=${first.next}`);
    expect(second.items.map((e) => e.target)).toEqual(['4', '3', '2', '1', '0']);
    expect(second.next).toBeNull();
  });
});
