// The service worker (served at /sw.js, so that it serves the whole site): it keeps the
// client's files, and the language catalogs it fetched, in a cache, and answers from there
// when the network (or the server) does not answer. Always the network first while there is
// one: a new version of the client is never hidden behind an old copy. The game itself
// needs the server, which the page says when it is offline (offline.js).
const CACHE = "ninetynine-client-v1";
const CLIENT = ["/", "/static/index.html", "/static/style.css", "/static/manifest.webmanifest",
  "/static/favicon.svg", "/static/icon-192.png", "/static/icon-512.png",
  ...["account", "app", "board", "cards", "clubs", "coach", "cues", "dom", "games", "i18n", "lobby",
      "offline", "play", "replay", "turns"].map((m) => `/static/${m}.js`)];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(CLIENT)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  const page = req.mode === "navigate";  // any page of the site is the one client page
  if (!page && !url.pathname.startsWith("/static/") && url.pathname !== "/api/language") return;
  event.respondWith(fetch(req).then((res) => {
    if (res.ok && !page) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return res;
  }).catch(() => caches.match(page ? "/" : req).then((hit) => hit || Response.error())));
});
