/**
 * The booking wizard on /book in real Chromium, at desktop and phone widths: the happy path
 * (with the stored booking's e-mail checked), every validation message on blur, the gating
 * toast, Back keeping values, the failure path, keyboard-only completion, and axe on every
 * step and on the confirmation screen.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { addDays, earliestBookableDate, formatChoice } from '../../src/features/booking/booking-dates';
import { parseMail } from '../server/forms-mime';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';
import { freeDays } from './support/free-days';
import { ukWallTimeToInstant } from '../../src/lib/uk-dates';

const REFERENCE = /^BK-[2-9A-HJKMNP-Z]{6}$/;
// Free days of each test's own (a request holds its first choice), read before each test.
let FIRST_DATE = '';
let SECOND_DATE = '';
test.beforeEach(async ({ request }) => {
  [FIRST_DATE = '', SECOND_DATE = ''] = await freeDays(request, 2);
});

const msg = {
  gate: 'Please fill in all required fields before continuing',
  success: 'Booking submitted successfully!',
  failure: 'There was a problem submitting your booking. Please try again.',
};

type Details = Record<'firstName' | 'lastName' | 'email' | 'phone' | 'company' | 'role' | 'notes', string>;

function details(tag: string): Details {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${tag}.${Date.now()}@example.org`,
    phone: '+44 7700 900123',
    company: 'Analytical Engines Ltd',
    role: 'Partner',
    notes: 'Step-free access, please.',
  };
}

const firstChoice = (page: Page) => page.getByRole('group', { name: 'First choice' });
const secondChoice = (page: Page) => page.getByRole('group', { name: 'Second choice (optional)' });

const fields = (page: Page): Record<keyof Details, Locator> => ({
  firstName: page.getByLabel('First Name'),
  lastName: page.getByLabel('Last Name'),
  email: page.getByLabel('Email Address'),
  phone: page.getByLabel('Phone Number'),
  company: page.getByLabel('Company'),
  role: page.getByLabel('Job Title'),
  notes: page.getByLabel('Special Requirements or Questions'),
});

async function fillStep1(page: Page) {
  await page.getByRole('radio', { name: 'Team Training (up to 10 people)' }).click();
  await firstChoice(page).getByLabel('Date').fill(FIRST_DATE);
  await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).click();
  await secondChoice(page).getByLabel('Date').fill(SECOND_DATE);
  await secondChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' }).click();
}

async function fillStep2(page: Page, d: Details) {
  const f = fields(page);
  for (const key of Object.keys(f) as (keyof Details)[]) await f[key].fill(d[key]);
}

/** The .eml files the e2e server wrote for `address`. */
function mailsTo(address: string) {
  const dir = join(E2E_DATA_DIR, 'mail');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  return names
    .map((n) => parseMail(readFileSync(join(dir, n), 'utf8')))
    .filter((m) => (m.header('to') ?? '').includes(address));
}

/** `target` lies wholly on the screen, below the site's fixed header. */
async function expectOnScreen(page: Page, target: Locator) {
  const box = (await target.boundingBox())!;
  const header = (await page.locator('body > header').first().boundingBox())!;
  const height = page.viewportSize()!.height;
  expect(box.y, 'below the header').toBeGreaterThanOrEqual(header.y + header.height - 1);
  expect(box.y + box.height, 'above the screen’s bottom').toBeLessThanOrEqual(height + 1);
}

for (const width of [1280, 375]) {
  test.describe(`the booking wizard at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 800 ? 900 : 740 } });

    test('books end to end: both steps, the confirmation with its reference, the FAQ gone, axe clean throughout', async ({
      page,
    }) => {
      await gotoHydrated(page, '/book');
      await expect(page.getByRole('heading', { name: 'Select Your Session Format' })).toBeVisible();
      await expect(page.getByRole('radio', { name: 'Live Zoom Workshop' })).toBeChecked();
      await expect(page.getByTestId('book-included')).toBeVisible();
      await expect(page.getByTestId('book-faq')).toBeVisible();
      await expectNoAxeViolations(page);

      await fillStep1(page);
      await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
      const step2 = page.getByRole('heading', { name: 'Your Details' });
      await expect(step2).toBeVisible();
      await expect(step2).toBeFocused();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      await expect(fields(page).phone).toHaveAttribute('placeholder', '+44 XXXX XXXXXX');
      // Step 2 repeats what is asked for, and says the owner will confirm it.
      const first = `First choice: ${formatChoice(FIRST_DATE, 'morning')}`;
      await expect(page.getByText('You are asking for')).toBeVisible();
      await expect(page.getByText(first)).toBeVisible();
      await expect(
        page.getByText('We will confirm one of these times by e-mail before the session is booked.'),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      const d = details(`happy${width}`);
      await fillStep2(page, d);
      await page.getByRole('button', { name: 'Complete Booking' }).click();

      const confirmed = page.getByRole('heading', { name: 'Booking Confirmed!' });
      await expect(confirmed).toBeVisible();
      await expect(confirmed).toBeFocused();
      await expect(page.getByText(msg.success, { exact: true })).toBeVisible();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      const reference = (await page.getByTestId('booking-reference').textContent())?.trim() ?? '';
      expect(reference).toMatch(REFERENCE);
      for (const step of [
        "You'll receive a confirmation email shortly.",
        "We'll contact you within 24 hours to confirm the details.",
        "You'll receive preparation materials one week before your session.",
      ]) {
        await expect(page.getByText(step)).toBeVisible();
      }
      await expect(
        page.getByText(/This is a request: we will confirm one of the times you chose/),
      ).toBeVisible();
      await expect(page.getByText(first)).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Your Details' })).toHaveCount(0);
      await expect(page.getByTestId('book-included')).toHaveCount(0);
      await expect(page.getByTestId('book-faq')).toHaveCount(0);
      await expectNoAxeViolations(page);

      // Really booked: the applicant's e-mail names the same reference and both choices.
      await expect.poll(() => mailsTo(d.email).length, { timeout: 10_000 }).toBe(1);
      const [mail] = mailsTo(d.email);
      expect(mail!.header('subject')).toBe(`Your strategy session request ${reference}`);
      expect(mail!.text).toContain('Team Training (up to 10 people)');
      expect(mail!.text).toContain('morning 9am-12pm UK time');
      expect(mail!.text).toContain('afternoon 1pm-5pm UK time');
    });

    test('shows every validation message when a field is left', async ({ page }) => {
      await gotoHydrated(page, '/book');
      const date = firstChoice(page).getByLabel('Date');
      await date.focus();
      await date.blur();
      await expect(date).toHaveAccessibleDescription('Please select a date');
      await expect(date).toHaveAttribute('aria-invalid', 'true');

      await date.fill(addDays(earliestBookableDate(new Date()), -1));
      await date.blur();
      await expect(date).toHaveAccessibleDescription('Please choose a date from tomorrow onwards');

      // Into the time group and out again without choosing (on a date it offers: today's half-days are
      // closed, so disabled).
      await date.fill(FIRST_DATE);
      await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).focus();
      await page.keyboard.press('Tab');
      const times = firstChoice(page).getByRole('group', { name: 'Time (UK)' });
      await expect(times).toHaveAccessibleDescription('Please select a time');

      // A second choice equal to the first.
      await date.fill(FIRST_DATE);
      await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).click();
      const second = secondChoice(page).getByLabel('Date');
      await second.fill(FIRST_DATE);
      await secondChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).click();
      await second.focus();
      await second.blur();
      await expect(second).toHaveAccessibleDescription(
        'Your second choice must differ from your first choice',
      );
      await page.getByRole('button', { name: 'Clear second choice' }).click();
      await expect(second).toHaveValue('');
      await expect(second).toHaveAccessibleDescription('');

      await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
      await expect(page.getByRole('heading', { name: 'Your Details' })).toBeFocused();

      const f = fields(page);
      const cases: [Locator, string, string][] = [
        [f.firstName, 'A', 'First name should be at least 2 characters'],
        [f.lastName, 'L', 'Last name should be at least 2 characters'],
        [f.email, 'ada@example', 'Please enter a valid email address'],
        [f.phone, '+44 7700 abc', 'Please enter a valid phone number'],
        [f.company, 'X', 'Company name should be at least 2 characters'],
        [f.role, 'Q', 'Job title should be at least 2 characters'],
      ];
      for (const [input, value, message] of cases) {
        await input.fill(value);
        await expect(page.getByText(message)).toHaveCount(0); // not while typing
        await input.blur();
        await expect(input).toHaveAccessibleDescription(message);
        await expect(input).toHaveAttribute('aria-invalid', 'true');
        await expect(page.getByText(message)).toBeVisible();
      }
      await f.phone.fill('+44 770');
      await f.phone.blur();
      await expect(f.phone).toHaveAccessibleDescription('Phone number must be at least 10 digits');

      // Fixing a field clears its message as the visitor types.
      await f.firstName.fill('Ada');
      await expect(f.firstName).toHaveAttribute('aria-invalid', 'false');
      await expect(page.getByText('First name should be at least 2 characters')).toHaveCount(0);
      await expectNoAxeViolations(page);
    });

    test('stays on step 1 with the error toast until the required choices are made', async ({ page }) => {
      await gotoHydrated(page, '/book');
      const next = page.getByRole('button', { name: 'Continue to Contact Details' });
      await next.click();
      await expect(page.getByText(msg.gate, { exact: true })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Select Your Session Format' })).toBeVisible();
      await expect(firstChoice(page).getByLabel('Date')).toHaveAccessibleDescription('Please select a date');
      // Focus goes to the first field in error, on the screen and clear of the fixed header.
      await expect(firstChoice(page).getByLabel('Date')).toBeFocused();
      await expectOnScreen(page, firstChoice(page).getByLabel('Date'));
      await expectOnScreen(page, page.getByText('Please select a date', { exact: true }));
      await page.screenshot({ path: `test-results/screens/booking-step1-error-${width}.png` });
      await expectNoAxeViolations(page);

      await firstChoice(page).getByLabel('Date').fill(FIRST_DATE);
      await next.click();
      await expect(page.getByRole('heading', { name: 'Select Your Session Format' })).toBeVisible();
      await expect(firstChoice(page).getByRole('group', { name: 'Time (UK)' })).toHaveAccessibleDescription(
        'Please select a time',
      );
      await expect(firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' })).toBeFocused();
      await expectOnScreen(page, firstChoice(page).getByRole('group', { name: 'Time (UK)' }));

      await firstChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' }).click();
      await next.click();
      await expect(page.getByRole('heading', { name: 'Your Details' })).toBeVisible();
      // Step 1's toast does not follow the visitor into step 2.
      await expect(page.getByText(msg.gate, { exact: true })).toHaveCount(0);
    });

    test('Back returns to step 1 with every value kept, and forward again keeps step 2', async ({ page }) => {
      await gotoHydrated(page, '/book');
      await fillStep1(page);
      await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
      const d = details(`back${width}`);
      await fillStep2(page, d);

      await page.getByRole('button', { name: 'Back' }).click();
      await expect(page.getByRole('heading', { name: 'Select Your Session Format' })).toBeFocused();
      await expect(page.getByRole('radio', { name: 'Team Training (up to 10 people)' })).toBeChecked();
      await expect(firstChoice(page).getByLabel('Date')).toHaveValue(FIRST_DATE);
      await expect(firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' })).toBeChecked();
      await expect(secondChoice(page).getByLabel('Date')).toHaveValue(SECOND_DATE);
      await expect(secondChoice(page).getByRole('radio', { name: 'Afternoon (1pm-5pm)' })).toBeChecked();

      await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
      const f = fields(page);
      for (const key of Object.keys(f) as (keyof Details)[]) await expect(f[key]).toHaveValue(d[key]);
    });

    test.describe('when the booking cannot be sent', () => {
      test.use({ allowConsoleErrors: /Booking submission failed|Failed to load resource/ });

      test('a server error keeps step 2 with every value and shows the toast; Submitting... meanwhile', async ({
        page,
      }) => {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let calls = 0;
        let sentKey: string | undefined;
        await page.route('**/api/send-contact-email', async (route) => {
          calls += 1;
          sentKey = route.request().headers()['idempotency-key'];
          const body = route.request().postDataJSON() as Record<string, unknown>;
          expect(body.formType).toBe('booking');
          expect(body).not.toHaveProperty('bcc');
          await held;
          await route.fulfill({
            status: 500,
            json: { error: 'Something went wrong on our side. Please try again.' },
          });
        });
        await gotoHydrated(page, '/book');
        await fillStep1(page);
        await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
        const d = details(`fail${width}`);
        await fillStep2(page, d);
        await page.getByRole('button', { name: 'Complete Booking' }).click();

        const sending = page.getByRole('button', { name: 'Submitting...' });
        await expect(sending).toBeVisible();
        await expect(sending).toBeDisabled();
        release();

        await expect(page.getByText(msg.failure, { exact: true })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Complete Booking' })).toBeEnabled();
        await expect(page.getByRole('heading', { name: 'Your Details' })).toBeVisible();
        const f = fields(page);
        for (const key of Object.keys(f) as (keyof Details)[]) await expect(f[key]).toHaveValue(d[key]);
        await expect(page.getByTestId('book-faq')).toBeVisible();
        expect(calls).toBe(1);
        expect(sentKey).toMatch(/^[0-9a-f]{32}$/);

        // A retry of the same booking carries the same key, so the server can never book it twice.
        const firstKey = sentKey;
        await page.getByRole('button', { name: 'Complete Booking' }).click();
        await expect.poll(() => calls).toBe(2);
        expect(sentKey).toBe(firstKey);
      });

      test('a network failure does the same', async ({ page }) => {
        await page.route('**/api/send-contact-email', (route) => route.abort('failed'));
        await gotoHydrated(page, '/book');
        await fillStep1(page);
        await page.getByRole('button', { name: 'Continue to Contact Details' }).click();
        const d = details(`net${width}`);
        await fillStep2(page, d);
        await page.getByRole('button', { name: 'Complete Booking' }).click();
        await expect(page.getByText(msg.failure, { exact: true })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Your Details' })).toBeVisible();
        await expect(fields(page).email).toHaveValue(d.email);
      });
    });

    test('can be completed with the keyboard alone', async ({ page, browser }) => {
      // How this Chromium orders the parts of a date field (it follows the system locale).
      const probe = await browser.newPage();
      await probe.setContent('<input type="date" id="d">');
      await probe.focus('#d');
      await probe.keyboard.type('01022030');
      const probed = await probe.inputValue('#d');
      await probe.close();
      const [y, m, dd] = FIRST_DATE.split('-') as [string, string, string];
      const typed =
        probed === '2030-01-02' ? `${m}${dd}${y}` : probed === '2030-02-01' ? `${dd}${m}${y}` : undefined;
      expect(typed, `unknown date field order (${probed})`).toBeDefined();

      await gotoHydrated(page, '/book');
      const active = () =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return `${el?.getAttribute('role') ?? el?.tagName.toLowerCase()}|${el?.getAttribute('name') ?? ''}|${el?.getAttribute('value') ?? ''}|${el?.textContent?.trim() ?? ''}`;
        });
      /** Presses Tab until focus is where `wanted` says (at most 40 times). */
      const tabTo = async (wanted: RegExp) => {
        for (let i = 0; i < 40; i += 1) {
          if (wanted.test(await active())) return;
          await page.keyboard.press('Tab');
        }
        throw new Error(`Tab never reached ${wanted} (at ${await active()})`);
      };

      await tabTo(/^input\|sessionType\|zoom\|/);
      await page.keyboard.press('ArrowRight'); // In-Person Workshop (London)
      await expect(page.getByRole('radio', { name: 'In-Person Workshop (London)' })).toBeChecked();
      await tabTo(/^input\|firstChoiceDate\|/);
      await page.keyboard.type(typed!);
      await expect(firstChoice(page).getByLabel('Date')).toHaveValue(FIRST_DATE);
      await tabTo(/^input\|firstChoiceTime\|morning\|/);
      await page.keyboard.press('Space');
      await expect(firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' })).toBeChecked();
      await tabTo(/^button\|\|\|Continue to Contact Details$/);
      await page.keyboard.press('Enter');

      await expect(page.getByRole('heading', { name: 'Your Details' })).toBeFocused();
      const d = details(`keys${width}`);
      for (const [name, value] of [
        ['firstName', d.firstName],
        ['lastName', d.lastName],
        ['email', d.email],
        ['phone', d.phone],
        ['company', d.company],
        ['role', d.role],
      ] as const) {
        await page.keyboard.press('Tab');
        expect(await active()).toMatch(new RegExp(`^input\\|${name}\\|`));
        await page.keyboard.type(value);
      }
      await tabTo(/^button\|\|\|Complete Booking$/);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeFocused();
      await expect(page.getByTestId('booking-reference')).toHaveText(REFERENCE);
    });
  });
}

test.describe('a visitor whose browser is in another time zone', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('sees the chosen half-day in their own time beside the UK one', async ({ page }) => {
    await gotoHydrated(page, '/book');
    await firstChoice(page).getByLabel('Date').fill(FIRST_DATE);
    await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).check();
    const start = ukWallTimeToInstant(FIRST_DATE, '09:00');
    const end = ukWallTimeToInstant(FIRST_DATE, '12:00');
    const zone = { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit', hour12: true } as const;
    const local = `${new Intl.DateTimeFormat('en-GB', { ...zone, weekday: 'short' }).format(start)} to ${new Intl.DateTimeFormat('en-GB', { ...zone, timeZoneName: 'short' }).format(end)}`;
    await expect(firstChoice(page).getByText(`In your time zone: ${local}`)).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('a visitor in the UK', () => {
  test.use({ timezoneId: 'Europe/London' });

  test('sees UK time alone', async ({ page }) => {
    await gotoHydrated(page, '/book');
    await firstChoice(page).getByLabel('Date').fill(FIRST_DATE);
    await firstChoice(page).getByRole('radio', { name: 'Morning (9am-12pm)' }).check();
    await expect(page.getByText(/In your time zone/)).toHaveCount(0);
  });
});
