// The players' own pages' service worker (scope /t/<slug>/me/): it keeps each player's page the
// phone opened, as the server last answered it, and the files the page uses, so that the link
// opens with no network and says it shows the last copy.
// Rendered by the server: ASSETS are the page's static files under their deployed (hashed) names.
"use strict";
const ASSETS = {{ assets_json }};
const VERSION = "{{ version }}";
const STATIC_CACHE = "zole-my-page-static-" + VERSION;
const PAGES_CACHE = "zole-my-pages";
// A player's page, and nothing else under the scope: the worker and manifests are not pages.
const MY_PAGE = /^\/t\/[A-Za-z0-9_-]+\/me\/[A-Za-z0-9_-]+\/$/;
// The page carries this hidden note; a copy served from here shows it.
const NOTE_HIDDEN = "data-offline-note hidden";
// What a copy served from here hides: the round clock, whose time left was the copy's.
const LIVE_ONLY = "data-live-only>";

function isMyPage(url) {
  return url.origin === self.location.origin && MY_PAGE.test(url.pathname);
}

function pageKey(url) {
  return url.origin + url.pathname;
}

function keepable(response) {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

async function keepPage(url, response) {
  const cache = await caches.open(PAGES_CACHE);
  await cache.put(pageKey(url), response);
}

// The page open when the worker arrives was loaded without it: fetch it once so that it opens
// offline from the first visit on.
async function keepOpenPages() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await Promise.all(
    windows.map(async (client) => {
      const url = new URL(client.url);
      if (!isMyPage(url)) return;
      try {
        const response = await fetch(url.href, { credentials: "same-origin" });
        if (keepable(response)) await keepPage(url, response);
      } catch (error) {
        // Offline already: the next visit online keeps it.
      }
    })
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(STATIC_CACHE);
      await cache.addAll(ASSETS);
      await keepOpenPages();
      await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith("zole-my-page-static-") && name !== STATIC_CACHE)
          .map((name) => caches.delete(name))
      );
      await self.clients.claim();
    })()
  );
});

// Network first: the page as the server answers it now, kept; the kept copy only offline.
async function myPage(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (keepable(response)) {
      await keepPage(url, response.clone());
    } else if (response.status === 404) {
      // The link is not known (any more): its old page is not shown again.
      const cache = await caches.open(PAGES_CACHE);
      await cache.delete(pageKey(url));
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES_CACHE);
    const kept = await cache.match(pageKey(url));
    if (!kept) throw error;
    const html = (await kept.text())
      .replace(NOTE_HIDDEN, "data-offline-note")
      .replace(LIVE_ONLY, "data-live-only hidden>");
    const headers = new Headers(kept.headers);
    headers.set("X-Served-By", "my-page-worker");
    return new Response(html, { status: 200, headers: headers });
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  return (await cache.match(request)) || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Only reads: a POST (check-in) always goes to the server, and its answer is never kept.
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate" && isMyPage(url)) {
    event.respondWith(myPage(request));
  } else if (url.origin === self.location.origin && ASSETS.includes(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});

// A message the site sent (Web Push): shown as a notification. Its JSON carries the title, the
// text, the page a tap opens and a tag (a newer message of the same tag takes the older's place).
const ICON = ASSETS.find((path) => path.endsWith(".svg"));

function pushedMessage(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch (error) {
    return { body: event.data.text() };
  }
}

self.addEventListener("push", (event) => {
  const message = pushedMessage(event);
  event.waitUntil(
    self.registration.showNotification(message.title || self.location.host, {
      body: message.body || "",
      tag: message.tag || undefined,
      renotify: Boolean(message.tag),
      icon: ICON,
      data: { url: message.url || "" },
    })
  );
});

// A tap on it opens the page it names, one of the site's own: the window that shows it already
// is brought forward and loaded anew (the seat it shows may be the last round's), else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const named = (event.notification.data && event.notification.data.url) || "";
  const url = new URL(named, self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname === url.pathname);
      if (open) {
        try {
          await open.focus();
        } catch (error) {
          // Only the player's own tap may bring a window forward: it is loaded anew anyway.
        }
        return open.navigate(url.href);
      }
      return self.clients.openWindow(url.href);
    })()
  );
});
