/**
 * Alerts on the console people's devices (issue #27 item 5, decision 041), on
 * PostgreSQL, against a push service on loopback that decrypts what it receives: the VAPID key is
 * the same for two instances sharing the secret; a device switched on receives one alert for a new
 * booking request, a lead, a message held as spam and an e-mail that failed for good, each naming
 * only its kind and its console page, never the visitor's words or address; two instances announce
 * each thing once; a device its push service calls gone (410) is deleted; a person sees and removes
 * only their own devices; signing out everywhere leaves devices; a subscription that cannot be
 * read, or an address that is not http(s), is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUSH_DEVICES_MAX,
  PUSH_HTTPS_ONLY,
  PUSH_TOO_MANY,
  PUSH_UNKNOWN_SERVICE,
  type AlertPayload,
  type PushView,
} from '../../src/contract/push';
import { vapidKeys } from '../../src/server/console/push';
import { bodies, bookableDate, makeFormsApp, SECRET, testDrivers, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';
import { startPushService, type PushService, type TestSubscription } from './push-service';

const drivers = await testDrivers('push');
const HELPER = 'grace@sterling.test';

it('the VAPID key pair is derived from the secret: the same for every instance, another for another secret', () => {
  const a = vapidKeys(SECRET);
  expect(vapidKeys(SECRET)).toEqual(a);
  expect(Buffer.from(a.publicKey, 'base64url')).toHaveLength(65);
  expect(Buffer.from(a.privateKey, 'base64url')).toHaveLength(32);
  expect(vapidKeys(`${SECRET}-other`).publicKey).not.toBe(a.publicKey);
});

describe.each(drivers)('alerts on $name', (driver) => {
  let t: FormsTestApp;
  let second: FormsTestApp | undefined;
  let push: PushService;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  let helper: OwnerCall;
  let publicKey: string;
  let n = 0;

  const env = (db: Record<string, string>) => ({
    PUSH_ALLOW_LOCAL: 'true',
    HELPER_EMAILS: `Grace <${HELPER}>`,
    ...db,
  });

  beforeAll(async () => {
    push = await startPushService();
    const db = await driver.env();
    drop = db.drop;
    // The job's rounds are run by the tests (`alerts.run()`), not by its timer.
    t = await makeFormsApp(env(db.env), { services: { alerts: { everyMs: 3_600_000 } } });
    if (driver.name === 'PostgreSQL') {
      second = await makeFormsApp(env(db.env), { services: { alerts: { everyMs: 3_600_000 } } });
    }
    owner = asOwner(t.app, await signInOwner(t.app));
    helper = asOwner(t.app, await signInOwner(t.app, HELPER));
    publicKey = ((await owner('GET', '/api/owner/push')).json() as PushView).publicKey;
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.app.close();
    await push?.close();
    await drop?.();
  });

  async function switchOn(call: OwnerCall, name = 'phone'): Promise<TestSubscription> {
    const sub = push.subscription(name);
    const res = await call('POST', '/api/owner/push/devices', {
      body: { endpoint: sub.endpoint, keys: sub.keys },
      headers: {
        'user-agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
      },
    });
    expect(res.statusCode).toBe(200);
    return sub;
  }
  /** Every round due, on each instance (the job's timer is set far off). */
  async function rounds() {
    // A round reads up to two seconds ago: what was just stored is announced once that is past.
    await new Promise((r) => setTimeout(r, 2_100));
    await Promise.all([t.app.services.alerts.run(), second?.app.services.alerts.run()]);
  }
  const alertsOf = (sub: TestSubscription) => push.read(sub, publicKey) as AlertPayload[];

  it('the public key is the one derived from the secret, on every instance', async () => {
    expect(publicKey).toBe(vapidKeys(SECRET).publicKey);
    if (second) {
      const other = asOwner(second.app, await signInOwner(second.app));
      expect(((await other('GET', '/api/owner/push')).json() as PushView).publicKey).toBe(publicKey);
    }
  });

  it('a device receives one alert per new thing, naming its kind and page and nothing the visitor wrote', async () => {
    const sub = await switchOn(owner);
    await rounds(); // the past is not announced
    expect(alertsOf(sub)).toEqual([]);

    n += 1;
    const booking = await t.post(
      bodies.booking(bookableDate(4), { email: `alert${n}@example.org`, firstName: 'Secretname' }),
    );
    expect(booking.statusCode).toBe(200);
    await rounds();
    const bookingId = (booking.json() as { id: string }).id;
    expect(alertsOf(sub)).toEqual([
      {
        kind: 'booking',
        title: 'New booking request',
        body: 'Open it in the console.',
        url: `/owner/inbox/${bookingId}`,
        tag: `booking-${bookingId}`,
      },
    ]);

    const lead = await t.post(
      bodies.contact({ email: `alert-lead${n}@example.org`, message: 'Secret words' }),
    );
    const held = await t.post(
      bodies.contact({ email: `alert-spam${n}@example.org`, website: 'http://spam.example' }),
    );
    await rounds();
    const leadId = (lead.json() as { id: string }).id;
    const heldId = (held.json() as { id: string }).id;
    expect(alertsOf(sub).slice(1)).toEqual([
      expect.objectContaining({ kind: 'lead', title: 'New lead', url: `/owner/inbox/${leadId}` }),
      expect.objectContaining({
        kind: 'spam',
        title: 'A message was held as spam',
        url: `/owner/inbox/${heldId}`,
      }),
    ]);

    // An e-mail that failed for good.
    await t.query(
      `update outbox set status = 'failed', last_error = 'EENVELOPE 550', last_attempt_at = now() where submission_id = '${leadId}'`,
    );
    await rounds();
    expect(alertsOf(sub).at(-1)).toMatchObject({
      kind: 'delivery',
      title: 'An e-mail could not be delivered',
      url: '/owner/deliveries?status=failed',
    });

    // Announced once, whichever instance ran the round; nothing a visitor typed in any of them.
    await rounds();
    expect(alertsOf(sub)).toHaveLength(4);
    const text = JSON.stringify(alertsOf(sub));
    for (const secret of ['Secretname', 'Secret words', '@example.org', 'Lovelace'])
      expect(text).not.toContain(secret);
  });

  it('several at once are one alert with their count and the list', async () => {
    const sub = await switchOn(owner, 'tablet');
    await rounds();
    for (let i = 0; i < 3; i += 1) await t.post(bodies.contact({ email: `many${n}-${i}@example.org` }));
    await rounds();
    expect(alertsOf(sub)).toEqual([
      {
        kind: 'lead',
        title: '3 new leads',
        body: 'Open it in the console.',
        url: '/owner/inbox',
        tag: 'lead',
      },
    ]);
  });

  it('many stored by one statement at one time are all announced, over several rounds, once', async () => {
    const sub = await switchOn(owner, 'desk');
    await rounds();
    await t.query(`insert into submissions (id, form_type, fields, received_at)
      select gen_random_uuid(), 'contact', jsonb_build_object('email', 'batch' || n || '@example.org'), now()
      from generate_series(1, 230) as n`);
    await rounds();
    await rounds();
    await rounds();
    const titles = alertsOf(sub).map((a) => a.title);
    expect(titles).toEqual(['200 new leads', '30 new leads']);
  });

  it('a helper hears of leads but not of failed e-mails; an address no longer in the settings hears nothing', async () => {
    const helpers = await switchOn(helper, 'helper-alerts');
    const stranger = push.subscription('former');
    await t.query(`insert into owner_push_devices (email, endpoint, p256dh, auth, name)
      values ('former@sterling.test', '${stranger.endpoint}', '${stranger.keys.p256dh}', '${stranger.keys.auth}', 'Old phone')`);
    await rounds();
    const lead = await t.post(bodies.contact({ email: `roles${n}@example.org` }));
    const leadId = (lead.json() as { id: string }).id;
    await t.query(
      `update outbox set status = 'failed', last_error = 'EENVELOPE 550', last_attempt_at = now() where submission_id = '${leadId}'`,
    );
    await rounds();
    expect(alertsOf(helpers).map((a) => a.kind)).toEqual(['lead']);
    expect(alertsOf(stranger)).toEqual([]);
    await helper(
      'POST',
      `/api/owner/push/devices/${((await helper('GET', '/api/owner/push')).json() as PushView).devices[0]!.id}/delete`,
    );
  });

  it('a device its push service calls gone is deleted', async () => {
    const sub = await switchOn(helper, 'old-phone');
    push.answer(sub.endpoint, 410);
    const res = await helper('POST', '/api/owner/push/test');
    expect(res.json()).toEqual({ ok: true, sent: 0, removed: 1 });
    expect(((await helper('GET', '/api/owner/push')).json() as PushView).devices).toEqual([]);
  });

  it('each person sees, tests and removes their own devices only; signing out everywhere keeps them', async () => {
    const mine = await switchOn(helper, 'helper-phone');
    const view = (await helper('GET', '/api/owner/push')).json() as PushView;
    expect(view.devices).toEqual([expect.objectContaining({ name: 'Chrome on Android', lastSentAt: null })]);
    const id = view.devices[0]!.id;

    const test = await helper('POST', '/api/owner/push/test');
    expect(test.json()).toEqual({ ok: true, sent: 1, removed: 0 });
    expect(alertsOf(mine)).toEqual([expect.objectContaining({ kind: 'test', title: 'Alerts are on' })]);

    // The owner neither sees nor removes the helper's device.
    const ownersView = (await owner('GET', '/api/owner/push')).json() as PushView;
    expect(ownersView.devices.map((d) => d.id)).not.toContain(id);
    expect((await owner('POST', `/api/owner/push/devices/${id}/delete`)).statusCode).toBe(404);

    const again = asOwner(t.app, await signInOwner(t.app, HELPER));
    expect((await again('POST', '/api/owner/sign-out-everywhere')).statusCode).toBe(200);
    const fresh = asOwner(t.app, await signInOwner(t.app, HELPER));
    expect(((await fresh('GET', '/api/owner/push')).json() as PushView).devices.map((d) => d.id)).toEqual([
      id,
    ]);

    expect((await fresh('POST', `/api/owner/push/devices/${id}/delete`)).json()).toEqual({ ok: true });
    expect(((await fresh('GET', '/api/owner/push')).json() as PushView).devices).toEqual([]);
  });

  it('a subscription that cannot be read is refused, and nothing is stored', async () => {
    const sub = push.subscription('bad');
    const refused = 'This device’s push subscription could not be read. Please switch alerts on again.';
    for (const body of [
      { endpoint: 'ftp://push.example/x', keys: sub.keys },
      { endpoint: 'not a url', keys: sub.keys },
      { endpoint: sub.endpoint, keys: { p256dh: 'short', auth: sub.keys.auth } },
      { endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh, auth: '!'.repeat(22) } },
      { endpoint: sub.endpoint },
      { endpoint: `https://push.example/${'x'.repeat(1000)}`, keys: sub.keys },
    ]) {
      const res = await owner('POST', '/api/owner/push/devices', { body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toEqual({ error: refused });
    }
    expect(await t.query(`select id from owner_push_devices where endpoint like '%bad-%'`)).toEqual([]);
  });
});

describe.each(drivers)('alerts without the test setting on $name', (driver) => {
  let t: FormsTestApp;
  let push: PushService;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    push = await startPushService();
    const db = await driver.env();
    drop = db.drop;
    t = await makeFormsApp(db.env, { services: { alerts: { everyMs: 3_600_000 } } });
  });
  afterAll(async () => {
    await t?.app.close();
    await push?.close();
    await drop?.();
  });

  it('refuses a push service reached over http or at a host that is not a browser’s push service, and posts to none', async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const sub = push.subscription('inward');
    const http = await owner('POST', '/api/owner/push/devices', {
      body: { endpoint: sub.endpoint, keys: sub.keys },
    });
    expect(http.statusCode).toBe(400);
    expect(http.json()).toEqual({ error: PUSH_HTTPS_ONLY });
    // An https address that is not a browser's push service is refused: loopback, private, any host.
    for (const endpoint of [
      `https://127.0.0.1:${new URL(push.url).port}/push/inward`,
      'https://10.0.0.8/push/inward',
      'https://attacker.example.com/collect',
      'https://fcm.googleapis.com.attacker.example.com/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
    ]) {
      const res = await owner('POST', '/api/owner/push/devices', { body: { endpoint, keys: sub.keys } });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json()).toEqual({ error: PUSH_UNKNOWN_SERVICE });
    }
    // A device stored before that check, at another host, is never posted to.
    await t.query(
      `insert into owner_push_devices (email, endpoint, p256dh, auth, name)
       values ('owner@sterling.test', 'https://127.0.0.1:${new URL(push.url).port}/push/inward', '${sub.keys.p256dh}', '${sub.keys.auth}', 'Old')`,
    );
    const res = await owner('POST', '/api/owner/push/test');
    expect(res.json()).toEqual({ ok: true, sent: 0, removed: 0 });
    expect(push.posted).toEqual([]);
    await t.query(`delete from owner_push_devices`);
  });

  it(`takes the browsers' push services, and at most ${PUSH_DEVICES_MAX} devices a person`, async () => {
    const owner = asOwner(t.app, await signInOwner(t.app));
    const keys = push.subscription('limit').keys;
    const endpoints = [
      'https://fcm.googleapis.com/fcm/send/a',
      'https://updates.push.services.mozilla.com/wpush/v2/b',
      'https://web.push.apple.com/c',
      'https://wns2-par02p.notify.windows.com/w/?token=d',
      ...Array.from(
        { length: PUSH_DEVICES_MAX - 4 },
        (_, i) => `https://fcm.googleapis.com/fcm/send/more-${i}`,
      ),
    ];
    for (const endpoint of endpoints) {
      const res = await owner('POST', '/api/owner/push/devices', { body: { endpoint, keys } });
      expect(res.statusCode, endpoint).toBe(200);
    }
    const more = await owner('POST', '/api/owner/push/devices', {
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/one-too-many', keys },
    });
    expect(more.statusCode).toBe(409);
    expect(more.json()).toEqual({ error: PUSH_TOO_MANY });
    // The same browser again replaces its row: not one more.
    expect(
      (await owner('POST', '/api/owner/push/devices', { body: { endpoint: endpoints[0], keys } })).statusCode,
    ).toBe(200);
    const devices = ((await owner('GET', '/api/owner/push')).json() as PushView).devices;
    expect(devices).toHaveLength(PUSH_DEVICES_MAX);
  });
});
