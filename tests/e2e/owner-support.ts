/**
 * What the console's browser tests share: the e-mails the owner server wrote as .eml files,
 * signing in with a link from `npm run owner:link` (the script the owner runs on the server's
 * machine), the `ownerPage` and `helperPage` fixtures (signed in once per worker, the session
 * kept as storage state), leads sent through the public form endpoint, and a booking request.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { OWNER_BASE_URL, OWNER_DATA_DIR, OWNER_EMAIL, OWNER_SERVER_ENV } from '../../playwright.config';
import { freeDays } from './support/free-days';
import { parseMail, type ParsedMail } from '../server/forms-mime';
import { test as base, expect, gotoHydrated } from './support/fixtures';

export { OWNER_EMAIL };
/** A further address that may sign in (OWNER_EMAILS): the test that ends every session uses it. */
export const SECOND_OWNER = 'partner@example.com';
/** The helper of HELPER_EMAILS (named Ada there): may read and answer leads and bookings only. */
export const HELPER = 'helper@example.com';
export const MAIL_DIR = join(OWNER_DATA_DIR, 'mail');

/**
 * Console errors the console's pages cause on purpose: the browser logs every 4xx answer, and
 * the console asks the server who is signed in (401 when nobody is) before it shows anything.
 * A used sign-in link is answered 409.
 */
export const EXPECTED_CONSOLE_ERRORS =
  /^Failed to load resource: the server responded with a status of (401|409)/;

export type Eml = ParsedMail & { file: string };

export function readMails(): Eml[] {
  let names: string[] = [];
  try {
    names = readdirSync(MAIL_DIR).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  // A file listed may be gone by the time it is read: an erasure deletes the person's e-mails.
  return names.sort().flatMap((file) => {
    let text: string;
    try {
      text = readFileSync(join(MAIL_DIR, file), 'utf8');
    } catch {
      return [];
    }
    return [{ ...parseMail(text), file }];
  });
}

/** E-mails to `to` whose subject contains `subject`. */
export function mailsTo(to: string, subject: string): Eml[] {
  return readMails().filter(
    (m) => (m.header('to') ?? '').includes(to) && (m.header('subject') ?? '').includes(subject),
  );
}

/** Waits (polling the mail folder, as Playwright's expect.poll does) for `count` such e-mails. */
export async function waitForMailsTo(to: string, subject: string, count = 1): Promise<Eml[]> {
  await expect
    .poll(() => mailsTo(to, subject).length, {
      message: `${count} e-mail(s) to ${to}: ${subject}`,
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(count);
  return mailsTo(to, subject);
}

/** The console's sign-in link in an e-mail's text. */
export function signInLinkIn(mail: ParsedMail): string {
  const url = /(https?:\/\/\S+\/owner\/sign-in\?token=[\w.-]+)/.exec(mail.text)?.[1];
  if (!url) throw new Error(`no sign-in link in "${mail.header('subject')}"`);
  return url;
}

const run = promisify(execFile);

/** A fresh single-use sign-in link, as `npm run owner:link` prints it on the server's machine. */
export async function ownerLink(email = OWNER_EMAIL): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/owner-link.ts', email], {
    env: {
      ...process.env,
      ...OWNER_SERVER_ENV,
      DATA_DIR: OWNER_DATA_DIR,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
    },
  });
  return stdout.trim();
}

/** Signs the page's browser context in (the link from owner:link, pressed on its page). */
export async function signIn(page: Page, path = '/owner', email = OWNER_EMAIL): Promise<void> {
  const link = new URL(await ownerLink(email));
  await gotoHydrated(page, `${link.pathname}${link.search}`);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
  if (path !== '/owner') await openConsole(page, path);
}

/** What `context.storageState()` saves: here, the session's cookie. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Signs `email` in, in a context of its own, and saves that context's storage state. The session
 * lives on the server until it is signed out (or 12 hours pass without a request), so every test
 * of the worker can start from it without a sign-in of its own.
 */
async function signedInState(browser: Browser, email: string): Promise<StorageState> {
  const context = await browser.newContext({
    baseURL: OWNER_BASE_URL,
    extraHTTPHeaders: { 'x-forwarded-for': ownerClientAddress() },
  });
  try {
    await signIn(await context.newPage(), '/owner', email);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

type Session = () => Promise<StorageState>;

/**
 * A worker's session for `email`, made when a test of the worker first asks for it (a worker
 * whose tests all sign in afresh makes none) and kept for the worker's other tests.
 */
function workerSession(email: string) {
  return async ({ browser }: { browser: Browser }, use: (session: Session) => Promise<void>) => {
    let state: Promise<StorageState> | undefined;
    await use(() => {
      // A sign-in that failed is tried again by the next test rather than failing it as well.
      state ??= signedInState(browser, email).catch((error: unknown) => {
        state = undefined;
        throw error;
      });
      return state;
    });
  };
}

/**
 * Signs the test's page in as `email`, on the Overview with its heading focused: from the
 * worker's session, or with a link of its own when the test sets `freshSignIn`.
 */
async function consolePage(page: Page, email: string, session: Session, fresh: boolean): Promise<void> {
  // Its own client address (the owner server trusts the loopback proxy): the console's sign-in
  // attempts are limited per client, and so are the forms a test sends from its page.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': ownerClientAddress() });
  if (fresh) return signIn(page, '/owner', email);
  await page.context().setStorageState(await session());
  await gotoHydrated(page, '/owner');
  // The sign-in page instead would mean an earlier test of this worker ended its session.
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeFocused();
}

/**
 * The shared fixture (console errors fail the test) and `ownerPage`: the test's page, signed in
 * as the owner (OWNER_EMAIL), on the Overview with its heading focused. A test takes it as its
 * page (`async ({ ownerPage: page }) => ...`) and opens the console page it needs with
 * `openConsole`. It is signed in after the file's `beforeEach` hooks have run.
 *
 * Each worker signs the owner (and the helper, for `helperPage`) in once, with a link from
 * `npm run owner:link`, and keeps the session as storage state; each test's context starts from
 * it (https://playwright.dev/docs/auth, one account per parallel worker), which spares every test
 * a sign-in script's start and the sign-in pages. Signing out ends that session for the worker's
 * later tests, so a test that signs out sets `freshSignIn` and signs in with a link of its own,
 * as does a test that reads its own sign-in in the audit log. No worker keeps a session of
 * SECOND_OWNER: the "Sign out everywhere" test ends that address's sessions while others run.
 */
export const test = base.extend<
  {
    ownerPage: Page;
    helperPage: Page;
    /** true: `ownerPage` and `helperPage` sign in with a fresh link, not the worker's session. */
    freshSignIn: boolean;
  },
  { ownerSession: Session; helperSession: Session }
>({
  freshSignIn: [false, { option: true }],
  ownerSession: [workerSession(OWNER_EMAIL), { scope: 'worker' }],
  helperSession: [workerSession(HELPER), { scope: 'worker' }],
  ownerPage: async ({ page, ownerSession, freshSignIn }, use) => {
    await consolePage(page, OWNER_EMAIL, ownerSession, freshSignIn);
    await use(page);
  },
  /** The same, signed in as the helper (HELPER). */
  helperPage: async ({ page, helperSession, freshSignIn }, use) => {
    await consolePage(page, HELPER, helperSession, freshSignIn);
    await use(page);
  },
});

let owners = 0;
/** A client address for one signed-in page (198.18.0.0/15, set aside for tests of networks). */
function ownerClientAddress(): string {
  owners += 1;
  const n = (process.pid * 131 + owners * 7 + Math.floor(Math.random() * 1000)) % 65_000;
  return `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/** Opens a console page by its address and waits until its heading has focus. */
export async function openConsole(page: Page, path: string): Promise<void> {
  await gotoHydrated(page, path);
  await expect(page.locator('h1')).toBeFocused();
}

/** The headers of an API call from the console's own origin. */
export const sameOrigin = { Origin: OWNER_BASE_URL };

/** A booking's id, from the console's list (every view). */
export async function bookingId(request: APIRequestContext, reference: string): Promise<string> {
  for (const view of ['requested', 'confirmed', 'past', 'declined', 'cancelled']) {
    const list = await request.get(`/api/owner/bookings?view=${view}`, { headers: sameOrigin });
    const found = ((await list.json()) as { items: { id: string; reference: string }[] }).items.find(
      (item) => item.reference === reference,
    );
    if (found) return found.id;
  }
  throw new Error(`no booking ${reference}`);
}

/** A signed fill-time token, as a form fetches it on first focus. */
export async function formToken(request: APIRequestContext, formType: string): Promise<string> {
  const issued = await request.post('/api/form-token', { data: { formType }, headers: sameOrigin });
  expect(issued.status()).toBe(200);
  const { token } = (await issued.json()) as { token: string };
  // The e2e server's minimum fill time is 50 ms.
  await new Promise((r) => setTimeout(r, 200));
  return token;
}

let visitor = 0;
/** Its own client address per request, so the form rate limit counts each test apart. */
export function clientAddress(): string {
  visitor += 1;
  // An IPv6 /64 of its own, never another call's: one hold per client (decision 053).
  return `2001:db8:${(process.pid % 0xffff).toString(16)}:${visitor.toString(16)}::1`;
}

/** A contact message through the public endpoint; `spam` fills the honeypot, which holds it. */
export async function sendContact(
  request: APIRequestContext,
  o: {
    firstName: string;
    lastName: string;
    email: string;
    message: string;
    company?: string;
    spam?: boolean;
  },
): Promise<string> {
  const res = await request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress() },
    data: {
      formType: 'contact',
      firstName: o.firstName,
      lastName: o.lastName,
      email: o.email,
      company: o.company ?? 'Analytical Engines Ltd',
      subject: 'speaking',
      message: o.message,
      consent: true,
      website: o.spam ? 'http://spam.example' : '',
      formToken: await formToken(request, 'contact'),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** A strategy-session request; answers with its reference. */
export async function requestBooking(
  request: APIRequestContext,
  o: {
    lastName: string;
    email: string;
    firstName?: string;
    company?: string;
    role?: string;
    /**
     * The first choice's date (a free day of the test's own unless given: a request holds its
     * first choice), and the second choice's (a free day too).
     */
    first?: string;
    second?: string;
  },
) {
  const free = o.first && o.second ? [] : await freeDays(request, 3);
  const first = o.first ?? free[0]!;
  const second = o.second ?? free.find((d) => d !== first)!;
  const res = await request.post('/api/send-contact-email', {
    headers: { ...sameOrigin, 'x-forwarded-for': clientAddress(), 'Idempotency-Key': `owner-${o.lastName}` },
    data: {
      formType: 'booking',
      // In person: confirming a Zoom session asks for its meeting link (decision 039).
      sessionType: 'inPerson',
      firstChoiceDate: first,
      firstChoiceTime: 'morning',
      secondChoiceDate: second,
      secondChoiceTime: 'afternoon',
      firstName: o.firstName ?? 'Grace',
      lastName: o.lastName,
      email: o.email,
      phone: '+44 20 7946 0321',
      company: o.company ?? 'Compilers Ltd',
      role: o.role ?? 'Rear Admiral',
      notes: '',
      website: '',
      formToken: await formToken(request, 'booking'),
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { id: string; reference: string };
}

/** A unique tag for one test's names and addresses. */
export function uniqueTag(label: string): string {
  return `${label}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
