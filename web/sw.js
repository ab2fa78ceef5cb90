// The service worker (served at /sw.js so that it covers the whole page): shows a Web Push
// message as a notification, and a click on it opens (or focuses) the room it names. The
// message is what the server's notifier sent: `{title, body, kind, room, game, url}`, and
// says nothing hidden (which room, not which move).

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('push', (e) => {
  let msg = {};
  try { msg = e.data ? e.data.json() : {}; } catch (_) { msg = { body: e.data ? e.data.text() : '' }; }
  const title = msg.title || 'Orion Online';
  e.waitUntil(self.registration.showNotification(title, {
    body: msg.body || '',
    tag: msg.room ? `room-${msg.room}` : undefined,
    icon: '/assets/icon-192.png',
    data: { url: msg.url || '/' },
  }));
});

self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = (e.notification.data && e.notification.data.url) || '/';
  e.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const c of open) {
      if (new URL(c.url).pathname === new URL(url, self.location.origin).pathname && 'focus' in c) return c.focus();
    }
    return self.clients.openWindow(url);
  })());
});
