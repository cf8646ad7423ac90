/**
 * The voice simulator in real Chromium, on the build made with a test key (the `voice`
 * project, scripts/voice-test-build.ts) and on the default build without one. The provider is
 * unreachable here: page.route answers its hosts (api.vapi.ai, Daily's) as they would answer.
 */
import type { Page, Request, Route } from '@playwright/test';
import { DEFAULT_BASE_URL } from '../../playwright.config';
import { VOICE_TEST_ASSISTANT_ID, VOICE_TEST_PUBLIC_KEY } from '../../scripts/voice-test-build';
import { AI_PATHS, PUBLIC_PATHS } from '../../src/content/routes';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated, test } from './support/fixtures';

const PROVIDER_HOST = /(^|\.)(vapi\.ai|daily\.co|pluot\.blue|sentry\.io)$/;
const SDK_CHUNK = /\/assets\/vapi-[^/]+\.js$/;
const isProvider = (url: URL) => PROVIDER_HOST.test(url.hostname);

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
};

const INVALID_KEY = {
  message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
  error: 'Unauthorized',
  statusCode: 401,
};
const INVALID_KEY_TEXT =
  'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa';

type Answer = { status: number; body: unknown };

/**
 * Answers the provider's hosts. POST /call/web waits for `answer()`, so a test can look at the
 * page while the web call is pending; any other provider request gets a 503.
 */
async function routeProvider(page: Page) {
  let answer!: (a: Answer) => void;
  const answered = new Promise<Answer>((resolve) => (answer = resolve));
  const webCalls: Request[] = [];
  const others: Request[] = [];
  await page.route(isProvider, async (route: Route) => {
    const request = route.request();
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: CORS });
    if (request.url() === 'https://api.vapi.ai/call/web') {
      webCalls.push(request);
      const { status, body } = await answered;
      return route.fulfill({
        status,
        headers: { ...CORS, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    }
    others.push(request);
    return route.fulfill({ status: 503, headers: CORS, body: '' });
  });
  return { answer, webCalls, others };
}

/** Holds the SDK chunk until `release()`, so the initializing state can be looked at. */
async function holdSdkChunk(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(SDK_CHUNK, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

function simulator(page: Page) {
  const group = page.getByRole('group', { name: 'AI voice simulator' });
  return { group, button: group.getByRole('button'), status: group.getByRole('status') };
}

function toastWith(page: Page, title: string, description: string | RegExp) {
  return page.locator('.toast').filter({ hasText: title }).filter({ hasText: description });
}

test.describe('with a key: the simulator on the real SDK', () => {
  test.use({ allowConsoleErrors: /status of 401/ });

  for (const path of AI_PATHS) {
    test(`${path}: initializing, ready, connecting, then a 401 fails the start; axe-clean in each state`, async ({
      page,
    }) => {
      const chunk = await holdSdkChunk(page);
      const provider = await routeProvider(page);
      await gotoHydrated(page, path);
      const { button, status } = simulator(page);

      await expect(button).toHaveText('Initializing...');
      await expect(button).toBeDisabled();
      await expectNoAxeViolations(page);
      // A press while warming up explains itself (aria-disabled: the button keeps focus and takes the press).
      await button.press('Enter');
      await expect(
        toastWith(page, 'Initializing', 'AI is warming up. Please try again shortly.'),
      ).toBeVisible();

      chunk.release();
      await expect(button).toHaveText('Click to talk with Elliot');
      await expect(button).toBeEnabled();
      await expect(status).toHaveText('Press the mic to start.');
      await expect(status).toHaveAttribute('aria-live', 'polite');
      await expectNoAxeViolations(page);

      // Keyboard: the button takes focus with a visible ring and starts the call with Enter.
      await button.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(button).toBeFocused();
      const outline = await button.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(outline.style).not.toBe('none');
      expect(outline.width).toBeGreaterThanOrEqual(2);
      await page.keyboard.press('Enter');

      await expect(status).toHaveText('Connecting to AI...');
      await expect(button).toHaveText('Click to stop');
      await expect.poll(() => provider.webCalls.length).toBe(1);
      const call = provider.webCalls[0]!;
      expect(call.method()).toBe('POST');
      expect(await call.headerValue('authorization')).toBe(`Bearer ${VOICE_TEST_PUBLIC_KEY}`);
      expect(call.postDataJSON()).toEqual({
        assistantId: VOICE_TEST_ASSISTANT_ID,
        assistantOverrides: { artifactPlan: { videoRecordingEnabled: false } },
      });
      await expectNoAxeViolations(page);

      provider.answer({ status: 401, body: INVALID_KEY });
      await expect(status).toHaveText(`Failed to start call: ${INVALID_KEY_TEXT}. Please try again.`);
      await expect(toastWith(page, 'Error', `Failed to start call: ${INVALID_KEY_TEXT}`)).toBeVisible();
      await expect(button).toHaveText('Click to talk with Elliot');
      await expect(button).toBeDisabled();
      await expectNoAxeViolations(page);

      // The error state blocks a new start with the spec's toast (by keyboard: the failure toast may cover the button).
      await button.press('Enter');
      await expect(
        toastWith(
          page,
          'Error',
          `Cannot start call: Failed to start call: ${INVALID_KEY_TEXT}. Please refresh.`,
        ),
      ).toBeVisible();
      expect(provider.webCalls).toHaveLength(1);
      expect(provider.others).toEqual([]);
    });
  }

  test.describe('when Daily cannot load its call machine', () => {
    // The bundle answers 503 here; Daily then reports the failure to its own Sentry, which the
    // AI page's CSP blocks on purpose (decision 005): visitors' calls are not reported to a third party.
    test.use({ allowConsoleErrors: /status of 503|ingest\.sentry\.io/ });
    test('after the web call, Daily loads its call machine with a script tag (no eval) and its failure fails the start', async ({
      page,
    }) => {
      const provider = await routeProvider(page);
      await gotoHydrated(page, '/ai');
      const { button, status } = simulator(page);
      await expect(button).toHaveText('Click to talk with Elliot');
      await button.click();
      provider.answer({ status: 201, body: { id: 'e2e-call', webCallUrl: 'https://e2e.daily.co/e2e-room' } });
      // Daily retries the bundle a few times before it gives up.
      await expect(status).toHaveText(
        'Failed to start call: Failed to load call object bundle https://c.daily.co/call-machine/versioned/0.87.0/static/call-machine-object-bundle.js. Please try again.',
        { timeout: 20_000 },
      );
      const bundle = provider.others.find((r) => r.url().startsWith('https://c.daily.co/call-machine/'));
      expect(bundle, 'the call machine bundle was requested').toBeDefined();
      // avoidEval: the bundle comes as a <script>, not fetched for Function().
      expect(bundle!.resourceType()).toBe('script');
    });
  });

  test('stop while connecting: Ending call..., then the call ends even though call-end never comes', async ({
    page,
  }) => {
    const provider = await routeProvider(page);
    await gotoHydrated(page, '/ai');
    const { button, status } = simulator(page);
    await expect(button).toHaveText('Click to talk with Elliot');
    await button.click();
    await expect(status).toHaveText('Connecting to AI...');
    await button.click();
    await expect(status).toHaveText('Ending call...');
    await expect(button).toHaveText('Ending call...');
    await expect(button).toBeDisabled();
    await expect(button).toBeFocused();
    await button.press('Enter');
    await expect(toastWith(page, 'Processing', 'Call termination is already underway.')).toBeVisible();
    provider.answer({ status: 401, body: INVALID_KEY });
    await expect(status).toHaveText('Call ended. Click the mic to talk again.');
    await expect(toastWith(page, 'Call Ended', 'The conversation has finished.')).toBeVisible();
    await expect(button).toHaveText('Click to talk with Elliot');
    await expectNoAxeViolations(page);
  });

  test.describe('when the avatar cannot load', () => {
    test.use({ allowConsoleErrors: /status of 404/ });
    test('the avatar is hidden when its image fails to load', async ({ page }) => {
      await page.route('**/images/elliot.svg', (route) => route.fulfill({ status: 404, body: '' }));
      await gotoHydrated(page, '/ai');
      await expect(page.getByText('Elliot, Bitcoin Consultant')).toBeVisible();
      await expect(page.getByRole('img', { name: /Elliot/ })).toHaveCount(0);
      await expect(page.locator('img[src$="elliot.svg"]')).toHaveCount(0);
    });
  });
});

test('only the AI pages widen the CSP for the provider; the microphone is allowed for the site itself', async ({
  request,
}) => {
  for (const path of AI_PATHS) {
    const headers = (await request.get(path)).headers();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp).toMatch(
      /connect-src 'self' https:\/\/api\.vapi\.ai https:\/\/\*\.daily\.co wss:\/\/\*\.wss\.daily\.co/,
    );
    // Scripts from the one host the SDK loads its call machine from, and no blob: scripts.
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toMatch(/^'self' [^;]*https:\/\/c\.daily\.co( |$)/);
    expect(scriptSrc).not.toMatch(/\*|blob:/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(headers['permissions-policy']).toContain('microphone=(self)');
    expect(headers['permissions-policy']).toContain('camera=()');
  }
  for (const path of ['/', '/contact', '/no-such-page']) {
    const headers = (await request.get(path)).headers();
    expect(headers['content-security-policy'] ?? '', path).not.toMatch(/vapi|daily|pluot|blob:/);
    expect(headers['permissions-policy'], path).toContain('microphone=()');
  }
});

test.describe('with a key: no other page loads the SDK or talks to the provider', () => {
  test.use({ allowConsoleErrors: /status of 404|\/no-such-page/ });

  test('every other route, the 404 page included', async ({ page, baseURL }) => {
    const seen: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (SDK_CHUNK.test(url.pathname) || isProvider(url)) seen.push(`${page.url()} -> ${request.url()}`);
    });
    const others = PUBLIC_PATHS.filter((p) => !(AI_PATHS as readonly string[]).includes(p));
    for (const path of [...others, '/no-such-page']) {
      await gotoHydrated(page, path);
      await page.waitForLoadState('networkidle');
    }
    expect(seen).toEqual([]);
    // The home page does not even preload it (its preloads are added when it hydrates).
    await gotoHydrated(page, '/');
    const preloads = await page
      .locator('link[rel="modulepreload"]')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href') ?? ''));
    expect(preloads.length).toBeGreaterThan(0);
    expect(preloads.filter((href) => SDK_CHUNK.test(href))).toEqual([]);
    expect(baseURL).not.toBe(DEFAULT_BASE_URL);
  });

  test('the AI page loads the SDK chunk after hydration, and only there', async ({ page }) => {
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (SDK_CHUNK.test(new URL(request.url()).pathname)) chunks.push(request.url());
    });
    await gotoHydrated(page, '/ai');
    await expect(simulator(page).button).toHaveText('Click to talk with Elliot');
    expect(chunks).toHaveLength(1);
  });
});

test.describe('without a key: the simulator says it is not available', () => {
  test.use({ baseURL: DEFAULT_BASE_URL });

  for (const path of AI_PATHS) {
    test(`${path}: not available, the SDK never loads, a press gives the not-ready toast; axe-clean`, async ({
      page,
    }) => {
      const loaded: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (SDK_CHUNK.test(url.pathname) || isProvider(url)) loaded.push(request.url());
      });
      await gotoHydrated(page, path);
      const { group, button, status } = simulator(page);
      await expect(group).toContainText('Voice simulator not available');
      await expect(status).toHaveText('The AI voice simulator is not available on this site at the moment.');
      await expect(button).toHaveText('Click to talk with Elliot');
      await expectNoAxeViolations(page);
      await button.click();
      await expect(toastWith(page, 'Error', 'AI Simulator not ready. Please refresh.')).toBeVisible();
      await expect(page.locator('.toast[data-variant="destructive"]')).toHaveCount(1);
      await expectNoAxeViolations(page);
      await page.waitForLoadState('networkidle');
      expect(loaded).toEqual([]);
    });
  }
});
