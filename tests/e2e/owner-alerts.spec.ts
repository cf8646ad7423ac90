/**
 * Alerts on the owner's devices and the installable console (decision 041), in real Chromium: the
 * console links its manifest and registers its service worker, scoped to /owner/; a console page
 * asked for offline is the offline page; the owner turns alerts on from the Security page, and a
 * booking request sent afterwards reaches the device's push service (a push service of this test on
 * loopback, which decrypts it): its kind and console page, nothing the visitor wrote.
 *
 * Chromium's own push service is Google's, out of reach here: the page's PushManager hands out a
 * subscription to this test's push service instead (the endpoint and keys a browser would give),
 * so everything from the Security page's button to the decrypted alert is the real path.
 */
import { OWNER_BASE_URL } from '../../playwright.config';
import { startPushService, type PushService } from '../server/push-service';
import { expectNoAxeViolations } from './support/axe';
import { expect } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, openConsole, requestBooking, test, uniqueTag } from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

let push: PushService;
test.beforeAll(async () => {
  push = await startPushService();
});
test.afterAll(async () => {
  await push?.close();
});

test('the console installs as an app: its manifest, its service worker, and an offline page', async ({
  ownerPage: page,
  context,
}) => {
  await openConsole(page, '/owner');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/owner/manifest.webmanifest');
  const manifest = (await (await page.request.get(manifestHref!)).json()) as {
    scope: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string }[];
  };
  expect(manifest).toMatchObject({ scope: '/owner', start_url: '/owner', display: 'standalone' });
  for (const icon of manifest.icons) expect((await page.request.get(icon.src)).status()).toBe(200);

  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${OWNER_BASE_URL}/owner`);

  await context.setOffline(true);
  await page.goto('/owner/inbox').catch(() => undefined);
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test('the owner turns alerts on; a booking request reaches the device, naming nothing the visitor wrote', async ({
  ownerPage: page,
  context,
  request,
}) => {
  const device = push.subscription('e2e');
  await context.grantPermissions(['notifications'], { origin: OWNER_BASE_URL });
  await page.addInitScript(
    ({ endpoint, keys }) => {
      const subscription = {
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: null },
        getKey: () => null,
        unsubscribe: async () => true,
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
      };
      PushManager.prototype.getSubscription = async () => null;
      PushManager.prototype.subscribe = async () => subscription as unknown as PushSubscription;
    },
    { endpoint: device.endpoint, keys: device.keys },
  );

  await openConsole(page, '/owner/security');
  const alerts = page.getByRole('region', { name: 'Alerts on your devices' });
  await expect(alerts.getByText('No device has alerts on.')).toBeVisible();
  await alerts.getByRole('button', { name: 'Turn on alerts on this device' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Alerts are on for this device.' })).toBeVisible();
  await expect(alerts.getByRole('rowheader', { name: /^Chrome on Linux$/ })).toBeVisible();
  await expectNoAxeViolations(page);

  const publicKey = ((await (await page.request.get('/api/owner/push')).json()) as { publicKey: string })
    .publicKey;
  const tag = uniqueTag('alert');
  const booking = await requestBooking(request, {
    firstName: 'Katherine',
    lastName: tag,
    email: `${tag}@example.org`,
  });
  const submission = await page.request.get(`/api/owner/submissions?q=${tag}`);
  const id = ((await submission.json()) as { items: { id: string }[] }).items[0]!.id;

  // The alerts job runs every few seconds. Its alert names this request alone, unless another
  // request (another test's, on this shared server) arrived in the same round: then one alert
  // counts them both and opens the Bookings page.
  type Alert = { kind: string; title: string; body: string; url: string; tag: string };
  const own = (alerts: Alert[]) =>
    alerts.find((a) => a.url === `/owner/inbox/${id}`) ??
    alerts.find((a) => a.kind === 'booking' && a.url === '/owner/bookings');
  await expect
    .poll(() => own(push.read(device, publicKey) as Alert[]) !== undefined, {
      timeout: 20_000,
      message: 'the alert',
    })
    .toBe(true);
  const alert = own(push.read(device, publicKey) as Alert[])!;
  if (alert.url === '/owner/bookings') {
    expect(alert.title).toMatch(/^\d+ new booking requests$/);
    expect(alert).toEqual({
      kind: 'booking',
      title: alert.title,
      body: 'Open it in the console.',
      url: '/owner/bookings',
      tag: 'booking',
    });
  } else {
    expect(alert).toEqual({
      kind: 'booking',
      title: 'New booking request',
      body: 'Open it in the console.',
      url: `/owner/inbox/${id}`,
      tag: `booking-${id}`,
    });
  }
  expect(JSON.stringify(push.read(device, publicKey))).not.toMatch(
    new RegExp(`${tag}|Katherine|${booking.reference}`),
  );

  // A test alert from the page; then the device is removed.
  await alerts.getByRole('button', { name: 'Send a test alert' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'A test alert was sent to 1 device.' }),
  ).toBeVisible();
  await alerts.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The device will no longer receive alerts.' }),
  ).toBeVisible();
  await expect(alerts.getByText('No device has alerts on.')).toBeVisible();
});
