/**
 * Alerts on the console people's own devices (Web Push, decision 041): the server's public key for
 * subscribing, a person's devices, switching a device on and removing it, and a test alert. Each
 * person sees and removes only their own devices; a helper too (they answer leads and bookings).
 */
import { z } from '~/lib/zod';
import { route } from './route';

/** What an alert is about. None carries a visitor's words or address. */
export const ALERT_KINDS = ['booking', 'lead', 'spam', 'delivery', 'system', 'test'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** What the service worker receives: the notification's words and the console page it opens. */
export type AlertPayload = { kind: AlertKind; title: string; body: string; url: string; tag: string };

export type PushDevice = { id: string; name: string; createdAt: string; lastSentAt: string | null };

export type PushView = {
  /** The server's VAPID public key (base64url, uncompressed P-256 point): `applicationServerKey`. */
  publicKey: string;
  devices: PushDevice[];
};

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const refused = 'This device’s push subscription could not be read. Please switch alerts on again.';

export const pushDeviceBody = z.object({
  /** The push service's address for this browser, as `PushSubscription.endpoint` gives it. */
  endpoint: z
    .string({ error: refused })
    .max(1000, { error: refused })
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { error: refused })
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .refine((value) => !/[\u0000-\u001f\u007f\uD800-\uDFFF]/.test(value), { error: refused }),
  keys: z.object(
    {
      // An uncompressed P-256 point (65 bytes: 87 characters) and a 16-byte secret (22).
      p256dh: z
        .string({ error: refused })
        .length(87, { error: refused })
        .regex(BASE64URL, { error: refused }),
      auth: z.string({ error: refused }).length(22, { error: refused }).regex(BASE64URL, { error: refused }),
    },
    { error: refused },
  ),
  /** What the browser says it is ("Chrome on Android"); the person may rename it later. */
  name: z
    .string()
    .trim()
    .max(80, { error: 'Please keep the device’s name under 80 characters.' })
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .regex(/^[^\u0000-\u001f\u007f\uD800-\uDFFF]*$/, { error: 'Please give the device a name in words.' })
    .default(''),
});
export type PushDeviceBody = z.input<typeof pushDeviceBody>;

export const NO_SUCH_DEVICE = 'There is no such device.';
export const PUSH_HTTPS_ONLY =
  'This browser’s push service is not reached over https, so alerts cannot be sent to it.';
/** The push services of the browsers (decision 041): Chrome's and Edge's, Firefox's, Safari's, Windows'. */
export const PUSH_SERVICE_DOMAINS = [
  'fcm.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
] as const;
export const PUSH_UNKNOWN_SERVICE =
  'This browser’s push service is not one alerts are sent to (Chrome, Edge, Firefox and Safari’s are).';
/** The devices one console person may switch alerts on for. */
export const PUSH_DEVICES_MAX = 10;
export const PUSH_TOO_MANY = `Alerts are on for ${PUSH_DEVICES_MAX} of your devices already: remove one first.`;

/** Whether `endpoint` is at one of the known push services (https, its host one of theirs). */
export function knownPushService(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  return (
    url.protocol === 'https:' &&
    url.port === '' &&
    PUSH_SERVICE_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`))
  );
}
const device = z.object({ id: z.uuid() });

export const pushRoutes = {
  view: route<PushView>()({ method: 'GET', path: '/push', role: 'helper' }),
  /** Switches alerts on for a browser (the same endpoint again updates it). */
  add: route<{ ok: true; device: PushDevice }>()({
    method: 'POST',
    path: '/push/devices',
    body: pushDeviceBody,
    fieldErrors: false,
    role: 'helper',
  }),
  remove: route<{ ok: true }>()({
    method: 'POST',
    path: '/push/devices/:id/delete',
    params: device,
    notFound: NO_SUCH_DEVICE,
    role: 'helper',
  }),
  /** Sends a test alert to each of the person's devices. */
  test: route<{ ok: true; sent: number; removed: number }>()({
    method: 'POST',
    path: '/push/test',
    role: 'helper',
  }),
};
