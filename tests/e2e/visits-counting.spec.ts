/**
 * Counting visits in a real browser (issue #27 item 1, decision 042), against a server of its own
 * on a throwaway PostgreSQL database, whose rows the test reads: three pages opened from a UTM
 * link are one visitor and three views credited to the campaign; the counting writes no cookie,
 * localStorage or sessionStorage entry; a browser sending `Sec-GPC: 1` is not counted; once the
 * day's salt is replaced (as it is at UK midnight), the same browser is a new visitor; the contact
 * form's funnel counts a visitor who started the form and left, and one who sent it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import pg from 'pg';
import { serverArgs } from '../../scripts/start-command.mjs';
import { expect, gotoHydrated, test } from './support/fixtures';

// A desktop browser's user agent: headless Chromium names itself HeadlessChrome, a bot to `isbot`.
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

test.describe.configure({ mode: 'serial' });
test.use({ userAgent: DESKTOP_UA });

let server: ChildProcess | undefined;
let baseURL = '';
let database = '';
let db: pg.Client;
let env: Record<string, string>;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The built server (as `npm start` runs it), ready once /healthz answers. */
async function start() {
  server = spawn(process.execPath, serverArgs(), {
    env: { ...process.env, HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || server.exitCode !== null)
      throw new Error('the counting test server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function stop() {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

type Counted = { visitors: number; views: number };

async function counted(): Promise<Counted> {
  const { rows } = await db.query<Counted>(
    'select count(distinct visitor)::int as visitors, count(*)::int as views from analytics_views',
  );
  return rows[0] ?? { visitors: 0, views: 0 };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = `visits_e2e_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  env = {
    PORT: String(port),
    PUBLIC_URL: baseURL,
    DATABASE_URL: url.toString(),
    OWNER_EMAIL: 'owner@example.com',
    MAIL_FROM: 'hello@example.com',
    DATA_DIR: `test-results/visits-${database}`,
    APP_SECRET: 'visits-test-secret-visits-test-secret-0123',
    // Playwright fills a form in milliseconds: a short minimum fill time keeps the trap on without tripping it.
    MIN_FILL_TIME_MS: '50',
  };
  await start();
  db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  await stop();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
});

test('three pages from a UTM link are one visitor and three views of the campaign, stored nowhere on the device', async ({
  page,
  context,
}) => {
  const beacons: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/views')) beacons.push(response.status());
  });
  await gotoHydrated(
    page,
    `${baseURL}/services?utm_source=linkedin&utm_medium=social&utm_campaign=spring-webinar`,
  );
  await page
    .getByRole('navigation', { name: /main/i })
    .getByRole('link', { name: 'About', exact: true })
    .click();
  await expect(page).toHaveURL(`${baseURL}/about`);
  await page
    .getByRole('navigation', { name: /main/i })
    .getByRole('link', { name: 'Contact', exact: true })
    .click();
  await expect(page).toHaveURL(`${baseURL}/contact`);

  await expect.poll(counted).toEqual({ visitors: 1, views: 3 });
  await expect.poll(() => beacons).toEqual([204, 204, 204]);
  const { rows } = await db.query<{ path: string; campaign: string }>(
    `select v.path, c.campaign from analytics_views v
     join (select visitor, max(utm_campaign) as campaign from analytics_views group by visitor) c using (visitor)
     order by v.path`,
  );
  expect(rows).toEqual([
    { path: '/about', campaign: 'spring-webinar' },
    { path: '/contact', campaign: 'spring-webinar' },
    { path: '/services', campaign: 'spring-webinar' },
  ]);

  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
});

test('a browser sending Sec-GPC: 1 is not counted', async ({ browser }) => {
  const before = await counted();
  const context = await browser.newContext({ userAgent: DESKTOP_UA, extraHTTPHeaders: { 'Sec-GPC': '1' } });
  const page = await context.newPage();
  const beacon = page.waitForResponse((r) => r.url().endsWith('/api/views'));
  await gotoHydrated(page, `${baseURL}/about`);
  expect((await beacon).status()).toBe(204);
  expect(await counted()).toEqual(before);
  await context.close();
});

test('the same browser with the next day’s salt is a new visitor', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoHydrated(page, `${baseURL}/`);
  await expect.poll(async () => (await counted()).views).toBe(4);
  expect((await counted()).visitors).toBe(1);

  // What UK midnight does (tests/server/analytics-counting.test.ts moves the clock across it):
  // the day's salt is destroyed and a new one is made on the next view.
  await stop();
  await db.query('delete from analytics_salts');
  await start();

  await gotoHydrated(page, `${baseURL}/`);
  await expect.poll(counted).toEqual({ visitors: 2, views: 5 });
});

test("the contact form's funnel: one visitor starts and leaves, another sends", async ({ browser }) => {
  test.setTimeout(60_000);
  const funnel = async () =>
    (
      await db.query<{ visited: number; started: number; sent: number }>(`
        select
          (select count(distinct visitor)::int from analytics_views where path = '/contact') as visited,
          (select count(distinct visitor)::int from analytics_form_starts where form_type = 'contact') as started,
          (select count(*)::int from submissions where form_type = 'contact' and not spam) as sent`)
    ).rows[0];
  const before = await funnel();

  // Two devices on one address, a computer and a phone, so two visitors (decision 042: a visitor
  // is an address and a kind of device).
  const leaves = await browser.newContext({ userAgent: `${DESKTOP_UA} Leaves/1` });
  const page1 = await leaves.newPage();
  await gotoHydrated(page1, `${baseURL}/contact`);
  const started = page1.waitForResponse((r) => r.url().endsWith('/api/form-token'));
  await page1.getByRole('form', { name: 'Send Us a Message' }).getByLabel('First Name').fill('Ada');
  expect((await started).status()).toBe(200);
  await leaves.close();

  const sends = await browser.newContext({ userAgent: PHONE_UA });
  const page2 = await sends.newPage();
  await gotoHydrated(page2, `${baseURL}/contact`);
  const form = page2.getByRole('form', { name: 'Send Us a Message' });
  await form.getByLabel('First Name').fill('Grace');
  await form.getByLabel('Last Name').fill('Hopper');
  await form.getByLabel('Email').fill(`grace.${Date.now()}@example.org`);
  await form.getByLabel('Company').fill('Analytical Engines Ltd');
  await form.getByLabel('Subject').selectOption('consulting');
  await form.getByLabel('Message').fill('Could we talk about a training day?');
  await form.getByRole('checkbox', { name: /collecting my data/ }).check();
  await page2.waitForTimeout(200);
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page2.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await sends.close();

  await expect
    .poll(funnel)
    .toEqual({ visited: before!.visited + 2, started: before!.started + 2, sent: before!.sent + 1 });
});
