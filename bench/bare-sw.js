/* Service worker of the benchmark baseline (bench/bare.html): precaches the
   page and the same vendored Pyodide files as the app's worker, cache first,
   so the "offline reload" of the baseline is measured the same way. */
"use strict";
const CACHE = "bare-pyodide";
const FILES = [
  "bare.html",
  "../static/vendor/pyodide-314.0.7/pyodide.mjs",
  "../static/vendor/pyodide-314.0.7/pyodide.asm.mjs",
  "../static/vendor/pyodide-314.0.7/pyodide.asm.wasm",
  "../static/vendor/pyodide-314.0.7/python_stdlib.zip",
  "../static/vendor/pyodide-314.0.7/pyodide-lock.json",
].map((f) => new URL(f, self.location).href);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const url = event.request.url.split("?")[0];
  if (FILES.includes(url)) {
    event.respondWith(caches.match(url).then((hit) => hit || fetch(event.request)));
  }
});
