/**
 * A feature with personal data needs its own folder and one line in the registry: a test-only
 * feature (loyalty points, tests/server/loyalty-feature/) is declared and added to the registry,
 * and nothing else changes. Its rows are then found and shown on the People screen, given in the
 * subject access file, erased with the person (by the foreign key's cascade), and removed by the
 * retention run after their period, which the Retention screen states; on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErasureAnswer, PersonView, RetentionView } from '../../src/contract/people';
import { runRetention } from '../../src/server/console/retention';
import { PERSONAL_DATA } from '../../src/server/root/personal-data';
import { type FormsTestApp, makeFormsApp, SECRET, testDrivers } from './forms-support';
import { asOwner, type OwnerCall, signInOwner } from './owner-session';
import { LOYALTY_TABLE, loyaltyPersonalData } from './loyalty-feature/loyalty-personal-data.server';

const REGISTRY = [...PERSONAL_DATA, loyaltyPersonalData];

/** The owner's calls as `call(method, url, body)`. */
const owner = (as: OwnerCall) => (method: 'GET' | 'POST', url: string, body?: unknown) =>
  as(method, url, { body });

const drivers = await testDrivers('registry');

describe.each(drivers)('a feature registering personal data, on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let call: ReturnType<typeof owner>;

  beforeAll(async () => {
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env, { services: { personalData: REGISTRY } });
    await t.query(LOYALTY_TABLE);
    call = owner(asOwner(t.app, await signInOwner(t.app)));
  });
  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  /** A contact submission from `email`, with loyalty points given `age` ago. */
  async function seed(email: string, points: number, age = '1 day') {
    const [s] = await t.query<{ id: string }>(`insert into submissions (id, form_type, fields, received_at)
      values (gen_random_uuid(), 'contact', '${JSON.stringify({ firstName: 'Lo', email })}'::jsonb, now() - interval '${age}')
      returning id`);
    await t.query(`insert into loyalty_points (submission_id, points, given_at)
      values ('${s!.id}', ${points}, now() - interval '${age}')`);
    return s!.id;
  }

  it('is found, shown, exported and erased with the person', async () => {
    const email = `loyal.${Date.now()}@example.org`;
    await seed(email, 42);

    const view = (
      await call('GET', `/api/owner/people?email=${encodeURIComponent(email)}`)
    ).json() as PersonView;
    const section = view.sections.find((s) => s.key === 'loyalty');
    expect(section).toMatchObject({ title: 'Loyalty points', items: [{ text: '42 points' }] });
    expect(view.total).toBe(2);

    const file = (
      await call('GET', `/api/owner/people/export.json?email=${encodeURIComponent(email)}`)
    ).json() as {
      loyalty: { points: number; id?: string }[];
    };
    expect(file.loyalty).toEqual([expect.objectContaining({ points: 42 })]);
    expect(file.loyalty[0]).not.toHaveProperty('id');

    const erased = await call('POST', '/api/owner/people/erase', { email });
    expect(erased.statusCode).toBe(200);
    const answer = erased.json() as ErasureAnswer;
    expect(answer.counts).toMatchObject({ submissions: 1, loyalty: 1 });
    expect(answer.erased).toEqual(expect.arrayContaining([{ noun: 'loyalty records', count: 1 }]));
    expect(await t.query(`select * from loyalty_points`)).toEqual([]);
    const after = (
      await call('GET', `/api/owner/people?email=${encodeURIComponent(email)}`)
    ).json() as PersonView;
    expect(after.total).toBe(0);
  });

  it('is removed by retention after its period, which the Retention screen states', async () => {
    const old = await seed(`old.${Date.now()}@example.org`, 1, '7 months');
    const young = await seed(`young.${Date.now()}@example.org`, 2, '5 months');
    const counts = await runRetention(
      {
        db: t.app.services.database.db,
        registry: REGISTRY,
        secret: SECRET,
        mailDir: `${t.dataDir}/mail`,
        consoleAddresses: [],
      },
      new Date(),
    );
    expect(counts).toMatchObject({ loyalty: 1 });
    const left = await t.query<{ id: string }>(`select submission_id as id from loyalty_points`);
    expect(left.map((r) => r.id)).toEqual([young]);
    expect(await t.query(`select id from submissions where id = '${old}'`)).toEqual([]);

    const screen = (await call('GET', '/api/owner/retention')).json() as RetentionView;
    expect(screen.periods).toContain('Loyalty points: 6 months after they were given.');
    expect(screen.countLabels.loyalty).toBe('loyalty records');
  });
});
