// The service worker: keeps the table's own files on the device so the table opens at once,
// even before the server answers. Its cache is named after the server's version (the page
// registers sw.js?v=VERSION); a new version installs beside the old one and the page offers a
// reload. Only the static files are kept: games, presets and the websocket always go to the
// server (playing offline is not offered).

const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `spades-${VERSION}`;
const FILES = [
  "/", "/help.html", "/manifest.webmanifest", "/css/table.css",
  "/js/main.js", "/js/app.js", "/js/net.js", "/js/cards.js", "/js/hand.js", "/js/actions.js",
  "/js/bidpad.js", "/js/roving.js", "/js/newgame.js", "/js/table.js", "/js/trick.js",
  "/js/seats.js", "/js/dialogs.js", "/js/announce.js", "/js/settings.js", "/js/games.js",
  "/js/help.js", "/js/helppage.js", "/js/account.js", "/js/shuffle.js", "/js/sealed.js", "/js/state.js",
  "/js/tableview.js", "/js/render.js", "/js/windows.js", "/js/screens.js", "/js/lobby.js",
  "/js/sheet.js", "/css/friends.css", "/js/tables.js", "/js/friends.js", "/js/invite.js",
  "/js/waiting.js", "/js/friendtable.js", "/js/presence.js", "/js/phrases.js",
  "/css/account.css", "/js/hint.js",
  "/icons/icon.svg", "/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })))));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("spades-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

function isStatic(url) {
  return url.origin === self.location.origin && !url.pathname.startsWith("/api/") &&
    !url.pathname.startsWith("/ws/") && url.pathname !== "/sw.js";
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!isStatic(url)) return;
  // the page itself, also at an invite or watch link (/t/CODE, /w/CODE: the same index.html)
  const page = url.pathname === "/index.html" || /^\/[tw]\/[^/]+\/?$/.test(url.pathname);
  const key = request.mode === "navigate" && page ? "/" : url.pathname;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(key);
    if (hit) return hit;
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") cache.put(key, answer.clone());
    return answer;
  })());
});
