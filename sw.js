/* Eleusis service worker: makes the page work with no network after one visit.

   build/precache.js (written by tools/build.py) sets self.ELEUSIS_PRECACHE =
   {version, files}: every file the page needs (shell, vendored runtime,
   engine zip) and a hash of their content, which names the cache. A change
   to any of them changes precache.js, so the browser installs this worker
   anew; activation deletes the caches of older versions.

   Strategies:
   - vendored runtime (static/vendor/<name>-<version>/...): cache first; these
     URLs never change content.
   - everything else precached (page, config, engine zip, CSS, icons):
     network first, the cached copy only when the network fails, so an
     online visit always gets the latest page.
   - anything else: not touched. */
"use strict";

importScripts("./build/precache.js");

const PRECACHE = self.ELEUSIS_PRECACHE;
const CACHE_PREFIX = "eleusis-";
const CACHE = CACHE_PREFIX + PRECACHE.version;
const SCOPE = new URL("./", self.location).href;
const URLS = new Set(PRECACHE.files.map((f) => new URL(f, SCOPE).href));
const VENDOR = new URL("static/vendor/", SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(
        PRECACHE.files.map((f) => new Request(new URL(f, SCOPE), { cache: "no-cache" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys
        .filter((key) => key.startsWith(CACHE_PREFIX) && key !== CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
  );
});

// The cache is opened once per worker start, not once per request; lookups
// use the exact precached URL (the query already stripped): an ignoreSearch
// lookup scans every entry of the cache.
let opened = null;
function cache() {
  if (opened === null) opened = caches.open(CACHE);
  return opened;
}

async function cacheFirst(request, key) {
  const hit = await (await cache()).match(key);
  return hit || fetch(request);
}

async function networkFirst(request, key) {
  try {
    return await fetch(request);
  } catch (error) {
    const hit = await (await cache()).match(key);
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.hash = "";
  const href = url.href.split("?")[0];
  if (request.mode === "navigate" && href.startsWith(SCOPE)) {
    // Any navigation inside the scope falls back to the cached page.
    const key = URLS.has(href) ? href : SCOPE;
    event.respondWith(networkFirst(request, key));
  } else if (URLS.has(href)) {
    event.respondWith(
      href.startsWith(VENDOR) ? cacheFirst(request, href) : networkFirst(request, href));
  }
});
