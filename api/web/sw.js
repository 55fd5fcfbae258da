// The service worker: shows the pushes the server sends (title, body, the game's link, one
// notification per game by `tag`) and opens the game when one is clicked. Served at `/sw.js`
// so that its scope is the whole page (`/`).

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(data.title || 'Baumeister', {
    body: data.body || '',
    tag: data.tag || undefined,
    icon: '/web/icon.svg',
    data: { url: data.url || '/' },
  }));
});

// Only a page of this server is ever opened: a link to another origin opens the lobby.
function target(url) {
  try {
    const u = new URL(url, self.location.origin);
    if (u.origin === self.location.origin) return u.href;
  } catch { /* fall through */ }
  return `${self.location.origin}/`;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = target(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((open) => {
    for (const client of open) {
      if (new URL(client.url).origin === self.location.origin && 'focus' in client) {
        return client.navigate(url).then((c) => (c || client).focus());
      }
    }
    return self.clients.openWindow(url);
  }));
});
