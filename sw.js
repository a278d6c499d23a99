/* Eleusis service worker: makes the page work with no network after one visit.

   build/precache.js (written by tools/build.py) sets self.ELEUSIS_PRECACHE =
   {version, files}: every file the page needs (shell, vendored runtime,
   engine zip) and a hash of their content, which names the cache. A change
   to any of them changes precache.js, so the browser installs this worker
   anew; activation deletes the caches of older versions.

   Strategy: every precached file (the page for any navigation inside the
   scope) is served from this version's cache, the network only for a file
   missing from it; anything else is not touched. The cache holds one
   consistent version, so the page, its engine and the runtime always match,
   and a boot never waits on the network: offline, or on a connection that
   hangs, it starts as fast as online. (Network first, as before, made every
   shell file wait for the network to fail first: 30-60 ms each offline, and
   as long as the connection hangs on a bad one.)

   Updates: the browser fetches this worker (and precache.js, never cached
   by HTTP) at each visit; a new version installs beside the page, takes
   over at once and the page offers to reload (index.html: update notice).
   So a deploy reaches a visitor at the latest on the visit after next. */
"use strict";

importScripts("./build/precache.js");

const PRECACHE = self.ELEUSIS_PRECACHE;
const CACHE_PREFIX = "eleusis-";
const CACHE = CACHE_PREFIX + PRECACHE.version;
const SCOPE = new URL("./", self.location).href;
const URLS = new Set(PRECACHE.files.map((f) => new URL(f, SCOPE).href));

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

async function fromCache(request, key) {
  const hit = await (await cache()).match(key);
  return hit || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.hash = "";
  const href = url.href.split("?")[0];
  if (request.mode === "navigate" && href.startsWith(SCOPE)) {
    // Any navigation inside the scope gets the cached page, whatever its
    // query (shared links keep their state after the #).
    event.respondWith(fromCache(request, URLS.has(href) ? href : SCOPE));
  } else if (URLS.has(href)) {
    event.respondWith(fromCache(request, href));
  }
});
