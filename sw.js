/* Eleusis service worker: makes the page work with no network after one visit.

   build/precache.js (written by tools/build.py) sets self.ELEUSIS_PRECACHE =
   {version, files, hashes, sizes, inflated}: every file the page needs (shell,
   vendored runtime, engine zip), the SHA-256 of each and a hash of them all,
   which names the cache ("inflated": the snapshot's memory, as a host that
   serves its precompressed .br copy sends it). A change to any of them changes precache.js, so the
   browser installs this worker anew; activation deletes the caches of older
   versions.

   Install checks every file it downloads against its hash before anything
   is stored: a host caught half-way through a deploy (the new precache.js,
   some old files) fails the install, so the new version never activates and
   the old one stays whole, cache and all; the browser tries again at the
   next visit. (Storing what came, as before, kept old files under the new
   version's name and served them, cache first, until the next deploy.)

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

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Download `file` and check it is this version's; resolve [url, response].
    A mismatch is asked once more past every HTTP cache, then refused. */
async function fetchChecked(file) {
  const url = new URL(file, SCOPE).href;
  let why = "";
  for (const mode of ["no-cache", "reload"]) {
    const response = await fetch(new Request(url, { cache: mode }));
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    const digest = hex(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
    if (digest === PRECACHE.hashes[file] || digest === (PRECACHE.inflated || {})[file]) {
      return [url, response];
    }
    why = `${file}: the host sent other content than version ${PRECACHE.version} lists`;
  }
  throw new Error(why);
}

/** The Pyodide snapshot (tools/build.py SNAPSHOT), stored gzip-compressed. */
const SNAPSHOT = new URL("./build/pyodide-snapshot.bin", SCOPE).href;

/** Store the snapshot as the memory itself: inflated here, once, in the
    worker's own thread, not by the page at each visit (31 MB of gzip to
    inflate on the page's main thread: about a third of a repeat visit). The
    page takes the memory as it takes the gzip file. */
async function inflated(response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new Response(bytes, response);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(await new Response(stream).arrayBuffer(), {
    headers: { "Content-Type": "application/octet-stream" },
  });
}

async function install() {
  const checked = await Promise.all(PRECACHE.files.map(fetchChecked));
  for (const entry of checked) {
    if (entry[0] === SNAPSHOT && typeof DecompressionStream === "function") {
      entry[1] = await inflated(entry[1]);
    }
  }
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(checked.map(([url, response]) => cache.put(url, response)));
  } catch (error) {
    await caches.delete(CACHE);  // never leave a version half stored
    throw error;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
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

/** build/precache.js as this version wrote it, for the page's progress bar:
    the sizes of the version being served, even offline. */
const MANIFEST = new URL("./build/precache.js", SCOPE).href;
function manifest() {
  return new Response(`self.ELEUSIS_PRECACHE = ${JSON.stringify(PRECACHE)};\n`, {
    headers: { "Content-Type": "text/javascript; charset=utf-8" },
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.hash = "";
  const href = url.href.split("?")[0];
  if (href === MANIFEST && request.destination !== "serviceworker"
      && request.destination !== "script") {
    event.respondWith(manifest());
  } else if (request.mode === "navigate" && href.startsWith(SCOPE)) {
    // Any navigation inside the scope gets the cached page, whatever its
    // query (shared links keep their state after the #).
    event.respondWith(fromCache(request, URLS.has(href) ? href : SCOPE));
  } else if (URLS.has(href)) {
    event.respondWith(fromCache(request, href));
  }
});
