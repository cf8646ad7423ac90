/**
 * The page-view beacon (decision 042): once a page is shown (hydrated, and no longer a
 * prerender), one `sendBeacon` of its path, the referrer for the first page of the visit, and the
 * link's UTM tags. Nothing is stored on or read from the device. Written for bytes: it is in
 * every page's first load, inside the home page's budget (decision 006); what it does not check
 * (Global Privacy Control, Do Not Track, the console's pages) the server does.
 */
import { VIEWS_API } from '~/content/views-api';

/** Set once the first page was counted: later pages were reached inside the site. */
let inSite = false;

export function countView(): void {
  const send = () => {
    const q = new URLSearchParams(location.search);
    navigator.sendBeacon(
      VIEWS_API,
      JSON.stringify({
        p: location.pathname,
        r: inSite ? '' : document.referrer,
        s: q.get('utm_source'),
        m: q.get('utm_medium'),
        c: q.get('utm_campaign'),
      }),
    );
    inSite = true;
  };
  if ((document as Document & { prerendering?: boolean }).prerendering) {
    document.addEventListener('prerenderingchange', send, { once: true });
  } else send();
}
