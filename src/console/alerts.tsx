/**
 * Alerts on the console people's devices (decision 041), on the Security page: "Turn on alerts on
 * this device" asks the browser for notifications, subscribes it to its push service with the
 * server's key, and hands the subscription to the server; the person's devices are listed, each
 * removable; a test alert goes to all of them. Also the console's service worker, registered when
 * the console opens: it shows the alerts and the offline page (public/owner/sw.js).
 */
import { useEffect, useState } from 'react';
import { alertsCopy as copy } from '~/content/console';
import { CONSOLE_PATH } from '~/content/routes';
import type { PushDeviceBody, PushView } from '~/contract/push';
import { post } from '~/components/console/http';
import { Loaded, useResource } from '~/components/console/data';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction, useNotify } from '~/components/console/notices';
import { Section } from '~/components/console/page';
import { DataTable, DateCell, rowTh, td } from '~/components/console/table';

const WORKER = `${CONSOLE_PATH}/sw.js`;
/** `/owner` and every page under it (the worker is served with Service-Worker-Allowed: /owner). */
const SCOPE = CONSOLE_PATH;

/** Registers the console's service worker (alerts, the offline page); a browser without one goes on. */
export function registerConsoleWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(WORKER, { scope: SCOPE }).catch(() => {
    // No worker: the console works the same, without alerts or the offline page.
  });
}

/**
 * An alert clicked while the console is open: the service worker asks this window to go to the
 * alert's page, which it does within the console (a draft elsewhere in the console is not lost to
 * a reload).
 */
export function useAlertClicks(go: (path: string) => void): void {
  useEffect(() => {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
    const listener = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type !== 'open' || typeof data.url !== 'string') return;
      const url = new URL(data.url, window.location.origin);
      if (url.origin !== window.location.origin || !url.pathname.startsWith(CONSOLE_PATH)) return;
      go(`${url.pathname}${url.search}`);
    };
    navigator.serviceWorker.addEventListener('message', listener);
    return () => navigator.serviceWorker.removeEventListener('message', listener);
  }, [go]);
}

function canReceiveAlerts(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** This browser's subscription to its push service, for the server's key (a stale one replaced). */
async function subscribe(publicKey: string): Promise<PushDeviceBody> {
  const registration = await navigator.serviceWorker.register(WORKER, { scope: SCOPE });
  await navigator.serviceWorker.ready;
  const applicationServerKey = keyBytes(publicKey);
  const options = { userVisibleOnly: true, applicationServerKey };
  let subscription = await registration.pushManager.getSubscription();
  // One made for another key (the server's secret was replaced) is refused by its push service.
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (subscription) {
    try {
      return bodyOf(subscription);
    } catch {
      await subscription.unsubscribe();
    }
  }
  subscription = await registration.pushManager.subscribe(options);
  return bodyOf(subscription);
}

function sameKey(given: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!given || given.byteLength !== wanted.length) return false;
  const bytes = new Uint8Array(given);
  return bytes.every((b, i) => b === wanted[i]);
}

function bodyOf(subscription: PushSubscription): PushDeviceBody {
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) throw new Error('incomplete subscription');
  return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
}

function TurnOn({ publicKey, onAdded }: { publicKey: string; onAdded: () => void }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!canReceiveAlerts()) return <p className="mt-4 text-ink-700">{copy.unsupported}</p>;

  async function turnOn() {
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        notify({ tone: 'error', text: copy.denied });
        return;
      }
      let body: PushDeviceBody;
      try {
        body = await subscribe(publicKey);
      } catch {
        notify({ tone: 'error', text: copy.failed });
        return;
      }
      const saved = await post('/push/devices', body);
      if (!saved.ok) {
        if (saved.status !== 401) notify({ tone: 'error', text: saved.error });
        return;
      }
      notify({ tone: 'success', text: copy.turnedOn });
      onAdded();
    } finally {
      setBusy(false);
    }
  }

  return (
    <p className="mt-4">
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void turnOn()}>
        {busy ? copy.turningOn : copy.turnOn}
      </button>
    </p>
  );
}

export function AlertsSection() {
  const [view, reload] = useResource<PushView>('/push');
  const { busy, run } = useAction();
  return (
    <Section id="security-alerts" heading={copy.heading} className="mt-8" look="large">
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <Loaded resource={view} reload={reload}>
        {(data) => (
          <>
            {data.devices.length === 0 ? (
              <p className="mt-4 text-ink-700">{copy.none}</p>
            ) : (
              <>
                <DataTable
                  label={copy.tableLabel}
                  minWidth="min-w-[32rem]"
                  columns={[copy.name, copy.added, copy.lastSent, copy.actions]}
                >
                  {data.devices.map((device, index) => (
                    <tr key={device.id}>
                      <th scope="row" id={`device-${index}`} className={rowTh}>
                        {device.name}
                      </th>
                      <DateCell iso={device.createdAt} />
                      <DateCell iso={device.lastSentAt} />
                      <td className={td}>
                        <ConfirmButton
                          label={copy.remove}
                          title={copy.removeTitle}
                          text={copy.removeText}
                          describedBy={`device-${index}`}
                          disabled={busy !== null}
                          className="btn btn-secondary min-h-10 px-3 py-1.5"
                          onConfirm={() =>
                            void run(
                              `remove-${device.id}`,
                              () => post(`/push/devices/${encodeURIComponent(device.id)}/delete`),
                              () => copy.removed,
                            ).then((done) => done && reload())
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </DataTable>
                <p className="mt-4">
                  <button
                    type="button"
                    className="btn btn-secondary"
                    disabled={busy !== null}
                    onClick={() =>
                      void run(
                        'test',
                        () => post<{ ok: true; sent: number; removed: number }>('/push/test'),
                        (answer) => copy.tested(answer.sent, answer.removed),
                      ).then((done) => done && reload())
                    }
                  >
                    {copy.test}
                  </button>
                </p>
              </>
            )}
            <TurnOn publicKey={data.publicKey} onAdded={reload} />
          </>
        )}
      </Loaded>
    </Section>
  );
}
