/**
 * What the form tests share: reading the e-mails the e2e server wrote as .eml files under its
 * DATA_DIR, a client address of its own per test (the server trusts the loopback proxy in
 * e2e, so each test is rate-limited apart), and a unique e-mail address per test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { parseMail, type ParsedMail } from '../server/forms-mime';

const MAIL_DIR = join(process.env.E2E_DATA_DIR ?? resolve('test-results/e2e-data'), 'mail');

export type Eml = ParsedMail & { file: string };

/** Every .eml whose headers or text mention `needle`, waiting until at least `count` exist. */
export async function waitForMails(needle: string, count = 1, timeoutMs = 10_000): Promise<Eml[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(MAIL_DIR).filter((f) => f.endsWith('.eml'));
    } catch {
      files = [];
    }
    const found: Eml[] = [];
    for (const file of files.sort()) {
      const raw = readFileSync(join(MAIL_DIR, file), 'utf8');
      const mail = parseMail(raw);
      if (mail.text.includes(needle) || (mail.header('to') ?? '').includes(needle))
        found.push({ ...mail, file });
    }
    if (found.length >= count) return found;
    if (Date.now() > until)
      throw new Error(`expected ${count} e-mails mentioning ${needle}, found ${found.length}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let seq = 0;
/** A unique client address and e-mail address for one test. */
export async function asNewVisitor(page: Page, label: string) {
  seq += 1;
  const n = (process.pid * 7 + seq * 13 + Math.floor(Math.random() * 200)) % 250;
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${n + 1}` });
  return `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.org`;
}

/**
 * Holds the form requests until `release()`, so the sending state stays on the page until the
 * test has seen it (however long a loaded machine takes), then lets them through to the server.
 */
export async function holdForms(page: Page): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/send-contact-email', async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

/** The path and query of an absolute link from an e-mail. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/**
 * Watches, and at first refuses, the chunks a form loads on use (zod and its schema module,
 * named by `schemaModule`): `fetched` lists each request for them; `unblock()` lets them through.
 */
export async function blockOnDemandChunks(page: Page, schemaModule: string) {
  const pattern = new RegExp(`/assets/(?:zod|${schemaModule})-[\\w-]+\\.js$`);
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (pattern.test(request.url())) fetched.push(request.url());
  });
  let blocked = true;
  await page.route(pattern, (route) => (blocked ? route.abort('failed') : route.continue()));
  return {
    fetched,
    unblock() {
      blocked = false;
    },
  };
}
