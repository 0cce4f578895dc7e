// The site's service worker (served at /push-sw.js, so its scope is the whole site): it shows the
// Web Push messages the server sends (workers/push.py: {id, kind, title, body, url}) and opens the
// game a notification is about when it is clicked. It caches nothing: the site is always fetched.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { message = { body: event.data ? event.data.text() : "" }; }
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(self.registration.showNotification(message.title || "Tash-Kalar Arena", {
    body: message.body || "", tag: message.id || undefined, icon: "/web/icon.svg", data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((c) => c.url === url);
    if (same) return same.focus();
    return self.clients.openWindow(url);
  })());
});
