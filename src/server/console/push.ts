/**
 * Alerts on the console people's devices (decision 041), by the Web Push protocol: a browser that
 * switched alerts on gave its push service's address and keys (`owner_push_devices`); an alert is
 * encrypted to those keys (RFC 8291, aes128gcm) and posted to the push service, signed with the
 * server's VAPID key (RFC 8292), by the `web-push` library, loaded by the first alert.
 *
 * - **The VAPID key pair is derived from APP_SECRET** (HKDF-SHA256), so it is kept as the secret is
 *   kept, and every instance sharing the secret signs with the same key: nothing to store or
 *   share. Replacing the secret replaces the key, and the push services then refuse the old
 *   subscriptions: each device is switched on again.
 * - **The push service's address came from a browser**, through a signed-in console person: it is
 *   posted to only over https, only at the browsers' push services (`PUSH_SERVICE_DOMAINS`), at
 *   most `PUSH_DEVICES_MAX` devices a person, and never to a private, loopback or link-local address
 *   (request-filtering-agent, checked after DNS), unless PUSH_ALLOW_LOCAL is set (tests). No
 *   redirect is followed. A 404 or 410 means the subscription is gone: the device is deleted.
 * - **What an alert says**: its kind and where to look ("New booking request", "Open it in the
 *   console"), never a visitor's words, name or address: a lock screen shows it to anyone nearby.
 */
import { createECDH, hkdfSync } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type webpushModule from 'web-push';
import {
  knownPushService,
  NO_SUCH_DEVICE,
  PUSH_DEVICES_MAX,
  PUSH_HTTPS_ONLY,
  PUSH_TOO_MANY,
  PUSH_UNKNOWN_SERVICE,
  pushRoutes,
  type AlertPayload,
  type PushDevice,
} from '~/contract/push';
import type { Config } from '../kit/config';
import type { Queryable } from '../kit/db/client';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import { ownerPushDevices } from './tables';

type DeviceRow = typeof ownerPushDevices.$inferSelect;
type WebPush = typeof webpushModule;

export type VapidKeys = { publicKey: string; privateKey: string };

/** The server's VAPID key pair, derived from its secret: the same on every instance. */
export function vapidKeys(secret: string): VapidKeys {
  for (let round = 0; ; round += 1) {
    const d = Buffer.from(hkdfSync('sha256', secret, 'vapid', `web-push key ${round}`, 32));
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(d);
      return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: d.toString('base64url') };
    } catch {
      // A value outside the curve's order (odds of about 2^-32): the next round's.
    }
  }
}

const deviceOf = (row: DeviceRow): PushDevice => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastSentAt: row.lastSentAt ? row.lastSentAt.toISOString() : null,
});

/** "Chrome on Android": what a device is called when its person gave no name. */
export function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'an unknown system';
  return `${browser} on ${system}`;
}

export type PushSender = {
  /** Sends `alert` to each device; deletes those whose push service says they are gone. */
  send(
    db: Queryable,
    devices: readonly DeviceRow[],
    alert: AlertPayload,
  ): Promise<{ sent: number; removed: number }>;
};

const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps an alert for a device that is off: an hour. */
const TTL_SECONDS = 3600;

export function createPushSender(
  config: Pick<Config, 'appSecret' | 'mailFrom' | 'pushAllowLocal' | 'sandbox'>,
  log: FastifyBaseLogger,
): PushSender {
  const keys = vapidKeys(config.appSecret);
  let loaded: Promise<Client> | undefined;
  // A load that failed is tried again by the next alert.
  const load = () =>
    (loaded ??= loadClient(config.pushAllowLocal).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));

  return {
    async send(db, devices, alert) {
      // A restored copy looked at before it goes live (decision 057) pushes nothing.
      if (devices.length === 0 || config.sandbox) return { sent: 0, removed: 0 };
      const client = await load();
      // Side by side: a slow or unreachable push service holds up no other device.
      const outcomes = await Promise.all(devices.map((device) => sendOne(client, db, device, alert)));
      return {
        sent: outcomes.filter((o) => o === 'sent').length,
        removed: outcomes.filter((o) => o === 'removed').length,
      };
    },
  };

  async function sendOne(
    { webpush, post }: Client,
    db: Queryable,
    device: DeviceRow,
    alert: AlertPayload,
  ): Promise<'sent' | 'removed' | 'failed'> {
    // A device stored before the push services were checked, at another host, is not posted to.
    if (!config.pushAllowLocal && !knownPushService(device.endpoint)) {
      log.warn({ deviceId: device.id }, 'push device not at a known push service: not sent');
      return 'failed';
    }
    try {
      const request = webpush.generateRequestDetails(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        JSON.stringify(alert),
        {
          vapidDetails: { subject: `mailto:${config.mailFrom}`, ...keys },
          TTL: TTL_SECONDS,
          urgency: 'high',
          contentEncoding: 'aes128gcm',
        },
      );
      const status = await post(request.endpoint, request.headers, request.body as Buffer);
      if (status === 404 || status === 410) {
        await db.delete(ownerPushDevices).where(eq(ownerPushDevices.id, device.id));
        log.info({ deviceId: device.id }, 'push device gone: removed');
        return 'removed';
      }
      if (status >= 200 && status < 300) {
        await db
          .update(ownerPushDevices)
          .set({ lastSentAt: sql`now()` })
          .where(eq(ownerPushDevices.id, device.id));
        return 'sent';
      }
      log.warn({ deviceId: device.id, status }, 'push service refused an alert');
    } catch (error) {
      log.warn(
        { deviceId: device.id, code: (error as { code?: string }).code ?? 'ERROR' },
        'push alert failed',
      );
    }
    return 'failed';
  }
}

type Client = { webpush: WebPush; post: Post };

type Post = (url: string, headers: Record<string, string | number>, body: Buffer) => Promise<number>;

/** web-push and the HTTP client with its address filter, loaded by the first alert. */
async function loadClient(allowLocal: boolean): Promise<Client> {
  const [{ default: webpush }, http, https, filter] = await Promise.all([
    import('web-push'),
    import('node:http'),
    import('node:https'),
    import('request-filtering-agent'),
  ]);
  const post: Post = (target, headers, body) =>
    new Promise((resolve, reject) => {
      const url = new URL(target);
      const secure = url.protocol === 'https:';
      if (!secure && !(allowLocal && url.protocol === 'http:')) {
        reject(Object.assign(new Error('not https'), { code: 'EPROTOCOL' }));
        return;
      }
      const agentOptions = { allowPrivateIPAddress: allowLocal, keepAlive: false };
      const agent = secure
        ? new filter.RequestFilteringHttpsAgent(agentOptions)
        : new filter.RequestFilteringHttpAgent(agentOptions);
      const request = (secure ? https : http).request(url, { method: 'POST', headers, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      // The whole exchange, not only a silence, is bounded: a service that trickles is cut.
      const deadline = setTimeout(
        () => request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
        SEND_TIMEOUT_MS,
      );
      request.on('close', () => clearTimeout(deadline));
      request.on('error', reject);
      request.end(body);
    });
  return { webpush, post };
}

/** The devices of one console person, newest first. */
async function devicesOf(db: Queryable, email: string): Promise<DeviceRow[]> {
  return db
    .select()
    .from(ownerPushDevices)
    .where(eq(ownerPushDevices.email, email))
    .orderBy(sql`${ownerPushDevices.createdAt} desc`);
}

/** The Security page's alerts: the key, one's devices, switching one on, removing it, a test. */
export const pushArea =
  (sender: PushSender): ConsoleArea =>
  (routes, { db, config }) => {
    const { publicKey } = vapidKeys(config.appSecret);
    routes.on(pushRoutes.view, async ({ owner }) => ({
      publicKey,
      devices: (await devicesOf(db, owner.email)).map(deviceOf),
    }));

    routes.on(pushRoutes.add, async ({ body, owner, request }) => {
      if (!config.pushAllowLocal) {
        if (new URL(body.endpoint).protocol !== 'https:') throw new Refusal(400, { error: PUSH_HTTPS_ONLY });
        if (!knownPushService(body.endpoint)) throw new Refusal(400, { error: PUSH_UNKNOWN_SERVICE });
      }
      const name = body.name || deviceName(request.headers['user-agent']);
      const row = await db.transaction(async (tx) => {
        // One person's devices are counted under one lock, so two at once cannot pass the limit.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`push-devices:${owner.email}`}))`);
        const [mine] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(ownerPushDevices)
          .where(
            and(
              eq(ownerPushDevices.email, owner.email),
              sql`${ownerPushDevices.endpoint} <> ${body.endpoint}`,
            ),
          );
        if ((mine?.n ?? 0) >= PUSH_DEVICES_MAX) throw new Refusal(409, { error: PUSH_TOO_MANY });
        // The same browser again (a new key, or another person on it): the row is replaced.
        const [saved] = await tx
          .insert(ownerPushDevices)
          .values({ email: owner.email, endpoint: body.endpoint, ...body.keys, name })
          .onConflictDoUpdate({
            target: ownerPushDevices.endpoint,
            set: { email: owner.email, ...body.keys, name, createdAt: sql`now()`, lastSentAt: null },
          })
          .returning();
        return saved!;
      });
      return { ok: true as const, device: deviceOf(row) };
    });

    routes.on(pushRoutes.remove, async ({ params, owner }) => {
      const gone = await db
        .delete(ownerPushDevices)
        .where(and(eq(ownerPushDevices.id, params.id), eq(ownerPushDevices.email, owner.email)))
        .returning({ id: ownerPushDevices.id });
      if (gone.length === 0) throw new Refusal(404, { error: NO_SUCH_DEVICE });
      return { ok: true as const };
    });

    routes.on(pushRoutes.test, async ({ owner }) => {
      const result = await sender.send(db, await devicesOf(db, owner.email), {
        kind: 'test',
        title: 'Alerts are on',
        body: 'This device will be told of new bookings, leads, spam and e-mails that fail.',
        url: '/owner/security',
        tag: 'test',
      });
      return { ok: true as const, ...result };
    });
  };
