/*
 * The console’s service worker (decision 041), scoped to /owner: shows the alerts the server
 * pushes (their words and the console page to open, never a visitor's), opens that page when an
 * alert is clicked, and answers a console page asked for while offline with a page that says so.
 * It keeps nothing else: every console answer holds personal data and is never stored.
 */
const OFFLINE = '/owner/offline.html';
const CACHE = 'console-offline-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE, { cache: 'reload' })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// Only the console's pages: a page that cannot be fetched is the offline page. Every other request
// (the API, scripts) is left to the browser.
self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE)));
});

self.addEventListener('push', (event) => {
  let alert = { title: 'Sterling Sats console', body: 'Open the console.', url: '/owner', tag: 'alert' };
  try {
    alert = { ...alert, ...event.data.json() };
  } catch {
    // An alert that cannot be read still says where to look.
  }
  const url = typeof alert.url === 'string' && alert.url.startsWith('/owner') ? alert.url : '/owner';
  event.waitUntil(
    self.registration.showNotification(alert.title, {
      body: alert.body,
      tag: alert.tag,
      // A grouped alert ("3 new leads") replaces the last of its kind, and is heard again.
      renotify: true,
      icon: '/owner/icon-192.png',
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/owner', self.location.origin).href;
  // A console window this worker controls is brought forward and told where to go; otherwise a new
  // window opens (a tab holding a draft is never reloaded under it).
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      const open = windows.find((w) => w.url.startsWith(`${self.location.origin}/owner`));
      if (!open) return self.clients.openWindow(url);
      open.postMessage({ type: 'open', url });
      return open.focus();
    }),
  );
});
