/**
 * The shared test fixture: every page a test opens fails the test on a console error or a
 * CSP violation, unless the test declares the errors it expects (`allowConsoleErrors`).
 */
import { test as base, expect, type Page } from '@playwright/test';

type Fixtures = {
  /**
   * Console errors matching this are expected by the test (e.g. the 404 page's log). One pattern
   * (use `|` for several): Playwright reads an array given to `test.use` as [value, options].
   */
  allowConsoleErrors: RegExp | undefined;
  consoleErrors: string[];
};

export const test = base.extend<Fixtures>({
  allowConsoleErrors: [undefined, { option: true }],
  // Automatic: every test that opens `page` asserts it, whether or not it names the fixture.
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        if (!allowConsoleErrors?.test(text)) errors.push(text);
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      await use(errors);
      expect(errors, 'console errors and CSP violations').toEqual([]);
    },
    { auto: true },
  ],
  page: async ({ page }, use) => {
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    await use(page);
  },
});

export { expect };

/** Waits until React has hydrated the page (the router marks links after hydration). */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}
