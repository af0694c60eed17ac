// The table links' service worker (scope /r/): it keeps each table page the phone opened, as the
// server last answered it, and the files the page uses, so that the link opens with no network.
// Rendered by the server: ASSETS are the page's static files under their deployed (hashed) names.
"use strict";
// The phone's queue of entries, sent here on Background Sync alike the page sends it.
importScripts({{ queue_json }});
const ASSETS = {{ assets_json }};
const VERSION = "{{ version }}";
const STATIC_CACHE = "zole-table-static-" + VERSION;
const PAGES_CACHE = "zole-table-pages";
// A table link's page, and nothing else under /r/: its worker and manifest are not pages.
const TABLE_PAGE = /^\/r\/[A-Za-z0-9_-]+\/$/;
// The page carries this hidden note; a copy served from here shows it.
const NOTE_HIDDEN = "data-offline-note hidden";

function isTablePage(url) {
  return url.origin === self.location.origin && TABLE_PAGE.test(url.pathname);
}

// One kept copy per table link, whatever its query string (a correction's ?correct=…).
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

// The table pages open when the worker arrives were loaded without it: fetch them once so that
// they open offline from the first visit on.
async function keepOpenPages() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await Promise.all(
    windows.map(async (client) => {
      const url = new URL(client.url);
      if (!isTablePage(url)) return;
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
          .filter((name) => name.startsWith("zole-table-static-") && name !== STATIC_CACHE)
          .map((name) => caches.delete(name))
      );
      await self.clients.claim();
    })()
  );
});

async function tablePage(request) {
  const url = new URL(request.url);
  try {
    const response = await fetch(request);
    if (keepable(response)) {
      await keepPage(url, response.clone());
    } else if (response.status === 404 || response.status === 410) {
      // The link is gone (replaced, revoked, re-seated): its old sheet is not shown again.
      const cache = await caches.open(PAGES_CACHE);
      await cache.delete(pageKey(url));
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES_CACHE);
    const kept = await cache.match(pageKey(url));
    if (!kept) throw error;
    const html = (await kept.text()).replace(NOTE_HIDDEN, "data-offline-note");
    const headers = new Headers(kept.headers);
    headers.set("X-Served-By", "table-worker");
    return new Response(html, { status: 200, headers: headers });
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  return (await cache.match(request)) || fetch(request);
}

let keeping = Promise.resolve();

// The page asks for a fresh copy after a deal was saved in place (no navigation to keep).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.keep !== "string") return;
  const url = new URL(data.keep, self.location.origin);
  if (!isTablePage(url)) return;
  // One after another: a copy asked for while the deal was being sent must not land last.
  keeping = keeping.then(() =>
    fetch(url.href, { credentials: "same-origin" })
      .then((response) => (keepable(response) ? keepPage(url, response) : null))
      .catch(() => null)
  );
  event.waitUntil(keeping);
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  // Only reads: a POST (a deal, a correction) always goes to the server, and its answer is
  // never kept.
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (request.mode === "navigate" && isTablePage(url)) {
    event.respondWith(tablePage(request));
  } else if (url.origin === self.location.origin && ASSETS.includes(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});

// Background Sync: the entries waiting on this phone are sent even with the page closed (where
// the browser has it). The open pages are told, to show the sheet as the server now has it.
self.addEventListener("sync", (event) => {
  if (event.tag !== self.ZoleQueue.SYNC_TAG) return;
  event.waitUntil(
    self.ZoleQueue.sendAll().then(async (links) => {
      const windows = await self.clients.matchAll({ type: "window" });
      windows.forEach((client) => client.postMessage({ synced: links }));
    })
  );
});
