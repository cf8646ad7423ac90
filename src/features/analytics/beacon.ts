/**
 * The page-view beacon (decision 042): once a page is shown (hydrated, and no longer a
 * prerender), one small POST of its path, the referrer for the first page of the visit, and the
 * link's UTM tags. Nothing is stored on or read from the device; a browser with Global Privacy
 * Control or Do Not Track sends nothing (the server would not count it anyway).
 */
import { VIEWS_API } from '~/content/analytics';

let landing = true;

const TAGS = [
  ['s', 'utm_source'],
  ['m', 'utm_medium'],
  ['c', 'utm_campaign'],
] as const;

export function countView(): void {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  if (nav.globalPrivacyControl || nav.doNotTrack === '1') return;
  const send = () => {
    const body: Record<string, string> = { p: location.pathname };
    if (landing && document.referrer) body.r = document.referrer;
    landing = false;
    const query = new URLSearchParams(location.search);
    for (const [key, name] of TAGS) {
      const value = query.get(name);
      if (value) body[key] = value;
    }
    fetch(VIEWS_API, {
      method: 'POST',
      keepalive: true,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  };
  const doc = document as Document & { prerendering?: boolean };
  if (doc.prerendering) document.addEventListener('prerenderingchange', send, { once: true });
  else send();
}
