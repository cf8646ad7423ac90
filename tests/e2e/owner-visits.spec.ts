/**
 * The Visits page (decision 042), in real Chromium against the real counting: two visitors' page
 * views come in through the beacon (with a campaign of the test's own), both start the contact
 * form and one sends it. The page shows today's figures, the contact form's funnel with the
 * started-but-abandoned form and the sent one, the chart (a canvas) with its figures in a table;
 * the range switches, a custom range is two days' fields; the weekly report's switch is saved.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import type { AnalyticsSummary } from '../../src/features/analytics/analytics-console-contract';
import { expectNoAxeViolations } from './support/axe';
import { EXPECTED_CONSOLE_ERRORS, openConsole, sameOrigin, test, uniqueTag } from './owner-support';
import { expect } from './support/fixtures';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

/** One visitor: its own address (the owner server trusts the loopback proxy) and browser. */
function visitor(request: APIRequestContext, address: string) {
  const headers = { ...sameOrigin, 'x-forwarded-for': address, 'user-agent': BROWSER };
  return {
    async view(p: string, more: Record<string, string> = {}) {
      const res = await request.post('/api/views', { headers, data: { p, ...more } });
      expect(res.status()).toBe(204);
    },
    /** Starts the contact form (its fill-time token): the token. */
    async start(): Promise<string> {
      const res = await request.post('/api/form-token', { headers, data: { formType: 'contact' } });
      expect(res.status()).toBe(200);
      return ((await res.json()) as { token: string }).token;
    },
    async send(token: string, tag: string) {
      // The e2e server's minimum fill time is 50 ms.
      await new Promise((r) => setTimeout(r, 200));
      const res = await request.post('/api/send-contact-email', {
        headers,
        data: {
          formType: 'contact',
          firstName: 'Hertha',
          lastName: tag,
          email: `${tag}@example.org`,
          company: 'Ayrton Instruments',
          subject: 'speaking',
          message: 'Could you speak to our advisers in May?',
          consent: true,
          website: '',
          formToken: token,
        },
      });
      expect(res.status(), await res.text()).toBe(200);
    },
  };
}

const contactSteps = (s: AnalyticsSummary) =>
  s.funnels.find((f) => f.formType === 'contact')?.steps.map((step) => step.count) ?? [];

async function summaryOf(page: Page, query: string): Promise<AnalyticsSummary> {
  const res = await page.request.get(`/api/owner/analytics?${query}`, { headers: sameOrigin });
  expect(res.status()).toBe(200);
  return (await res.json()) as AnalyticsSummary;
}

test('the owner reads the day’s visits, a form’s funnel and the chart, and switches the weekly report', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('visits');
  const before = await summaryOf(page, 'range=today');

  const a = visitor(request, '203.0.113.201');
  const b = visitor(request, '203.0.113.202');
  await a.view('/', { r: `https://www.${tag}.example.com/list`, s: 'e2e', m: 'test', c: tag });
  await a.view('/contact');
  await b.view('/contact', { s: 'e2e', m: 'test', c: tag });
  const token = await a.start();
  await b.start(); // and leaves the form unsent
  await a.send(token, tag);

  const after = await summaryOf(page, 'range=today');
  const [visited = 0, started = 0, sent = 0] = contactSteps(after);
  const [visitedBefore = 0, startedBefore = 0, sentBefore = 0] = contactSteps(before);
  expect(visited - visitedBefore).toBeGreaterThanOrEqual(2);
  expect(started - startedBefore).toBeGreaterThanOrEqual(2);
  expect(sent - sentBefore).toBeGreaterThanOrEqual(1);

  // Today's figures, as the page loaded them.
  const loaded = page.waitForResponse((r) => r.url().includes('/api/owner/analytics?range=today'));
  await openConsole(page, '/owner/visits?range=today');
  const shown = (await (await loaded).json()) as AnalyticsSummary;
  await expect(page.getByRole('link', { name: 'Today' })).toHaveAttribute('aria-current', 'page');
  await expect(
    page.getByText(/^Today’s figures were last counted on \d+ \w+ \d{4}, \d\d:\d\d\.$/),
  ).toBeVisible();
  await expect(
    page.getByText(new RegExp(`^Visitors ${shown.totals.visitors.toLocaleString('en-GB')}, `)),
  ).toBeVisible();

  // The campaign of this test: two visitors.
  const campaigns = page.getByRole('table', { name: 'Campaigns', exact: true });
  await expect(campaigns.getByRole('row', { name: new RegExp(`^${tag} 2 `) })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Sites by visitors' }).getByText(`${tag}.example.com`),
  ).toBeVisible();

  // The contact form's funnel: started twice (one left unsent), sent once at least.
  const [v, s1, s2] = contactSteps(shown);
  const funnel = page.getByRole('table', { name: 'Contact message' });
  await expect(funnel.getByRole('row', { name: new RegExp(`^Visited the page ${v} `) })).toBeVisible();
  await expect(funnel.getByRole('row', { name: new RegExp(`^Started the form ${s1} `) })).toBeVisible();
  // (The owner server is shared: other tests' forms, sent without a browser's start, are in "Sent".)
  await expect(funnel.getByRole('row', { name: new RegExp(`^Sent ${s2} `) })).toBeVisible();

  // The chart is drawn, named, and its figures are in a table.
  const chart = page.getByRole('img', { name: /^Chart of visitors and page views per hour/ });
  await expect(chart.locator('canvas')).toBeVisible();
  // As a person sees it: the chart has its height, and what follows starts below it, not under it.
  const drawn = (await chart.boundingBox())!;
  expect(drawn.height).toBeGreaterThanOrEqual(260);
  const canvas = (await chart.locator('canvas').first().boundingBox())!;
  expect(canvas.height).toBeGreaterThan(150);
  // Drawn inside its box, not below it (a chart without uPlot's rules overflows its box).
  expect(canvas.y).toBeGreaterThanOrEqual(drawn.y - 1);
  expect(canvas.y + canvas.height).toBeLessThanOrEqual(drawn.y + drawn.height + 1);
  const next = (await page.locator('summary', { hasText: 'The figures per hour' }).boundingBox())!;
  expect(next.y).toBeGreaterThanOrEqual(drawn.y + drawn.height - 1);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/visits-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('summary', { hasText: 'The figures per hour' }).click();
  await expect(page.getByRole('table', { name: 'The figures per hour' }).getByRole('row')).toHaveCount(
    shown.series.length + 1,
  );
  await expectNoAxeViolations(page);

  // Another range.
  await page.getByRole('link', { name: 'Last 7 days' }).click();
  await expect(page).toHaveURL(/[?&]range=7d/);
  await expect(page.getByRole('heading', { name: 'Visitors and page views per day' })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Chart of visitors and page views per day/ }).locator('canvas'),
  ).toBeVisible();
  await page.locator('summary', { hasText: 'The figures per day' }).click();
  await expect(page.getByRole('table', { name: 'The figures per day' }).getByRole('row')).toHaveCount(8);

  // A range of one's own: two days.
  await page.getByRole('link', { name: 'Custom' }).click();
  await expect(page.getByText('Choose the first and last day of the range, then press Show.')).toBeVisible();
  const today = after.to;
  const yesterday = after.previousTo;
  await page.getByLabel('First day').fill(yesterday);
  await page.getByLabel('Last day').fill(today);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`range=custom`));
  await expect(page).toHaveURL(new RegExp(`from=${yesterday}`));
  await page.locator('summary', { hasText: 'The figures per day' }).click();
  await expect(page.getByRole('table', { name: 'The figures per day' }).getByRole('row')).toHaveCount(3);
  await expectNoAxeViolations(page);

  // The weekly report: on until switched off, and saved.
  const report = page.getByRole('checkbox', { name: 'Send me the weekly report each Monday' });
  await expect(report).toBeChecked();
  await report.uncheck();
  await expect(
    page.getByRole('status').filter({ hasText: 'The weekly report is switched off.' }),
  ).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('checkbox', { name: 'Send me the weekly report each Monday' }),
  ).not.toBeChecked();
  await page.getByRole('checkbox', { name: 'Send me the weekly report each Monday' }).check();
  await expect(
    page.getByRole('status').filter({ hasText: 'The weekly report will be sent each Monday.' }),
  ).toBeVisible();
});
