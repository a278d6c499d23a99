/* Start Pyodide and fetch the engine at once; hand the interpreter to PyScript.

   PyScript loads its core, reads its configuration and only then imports the
   interpreter: on a cold boot that would put several hundred milliseconds of
   script loading in front of the long part (compiling the WebAssembly and
   starting CPython). index.html calls start() as soon as this small module is
   loaded, so all of that overlaps PyScript's own start.

   start() also fetches build/app.zip (the engine and the web face, with their
   bytecode: see tools/build.py) while Pyodide starts. Once both are there the
   zip is written into Pyodide's file system and put first on sys.path as it
   is (zipimport: nothing is unpacked, and modules load from their compiled
   bytecode). The zip also carries PyScript's own `pyscript` package, the
   same files PyScript writes at boot, with their bytecode, so PyScript's
   `import pyscript` skips compiling too. So, once the interpreter is up, the
   page's Python runs without a further fetch, and installing the zip costs
   one file write and one line of Python.

   index.html names this module as PyScript's `interpreter`: PyScript imports
   it and calls its loadPyodide(options) and reads `version`, exactly as it
   would with pyodide.mjs. The same module instance is shared, so PyScript
   receives the interpreter that is already starting. Its stdout/stderr hooks
   are installed when it asks.

   The standard library is the build's (build/python_stdlib.zip, tools/build.py
   stdlib_zip): Pyodide's own trimmed to what the page can import, as
   bytecode (1.3 MB of download instead of 2.5 MB, and nothing of it to
   compile). The rare module left out is fetched with the whole library the
   first time it is imported (wholeStdlib below, eleusis_web.stdlib_fallback).

   Pyodide starts from a memory snapshot when the site has one
   (build/pyodide-snapshot.bin, made by tools/snapshot.mjs; see tools/build.py):
   the interpreter's memory right after a plain start (plus the standard-
   library modules the page imports, compiled), restored instead of
   starting CPython again, which is most of a boot (a cold boot takes a third
   of the time). The snapshot is fetched beside the runtime and inflated with
   DecompressionStream (it is stored gzip-compressed; a host that already
   decoded it is fine too). If anything about it fails (missing, damaged, made
   by another Pyodide, no DecompressionStream), Pyodide starts the plain way:
   slower, never broken. After a restore, eleusis_web.snapshot.refresh renews
   what the snapshot froze (the random seed, the time zone, the language).

   The snapshot is used only when it is already here (chooseBoot): when the
   service worker holds it (every visit after the first), or when the page
   is served from this very machine. A first visit starts
   plain and the service worker fetches the snapshot once the page is
   ready, for the next visit. The snapshot saves about a second of CPU
   (several on a slow phone) but costs 4.3 MB more to download; since the
   standard library and the engine come as bytecode, a plain start is quick
   enough that those bytes cost more than they save on any link a browser
   can tell apart (navigator.connection stops at 10 Mbit/s): measured on a
   first visit, plain against snapshot, 11 s against 16 s at 5 Mbit/s and
   4 s against 5.7 s at 20 Mbit/s (docs/performance.md).

   Progress: while it loads, the page shows a determinate bar (#loading-bar,
   with #loading-text): bytes received of bytes expected, the expected sizes
   read from the build's own manifest (build/precache.js: every file's size,
   written by tools/build.py), summed over the files a boot downloads (BOOT).
   Bytes are counted as they arrive for what goes through fetch() (the
   standard library, the engine zip, the snapshot, the lock file: a clone of
   each response is read beside its consumer), and when complete for the
   WebAssembly module and Pyodide's script (a Resource Timing entry), which
   are left untouched so the browser's streaming compile and its code cache
   work as before. A download that fails shows the error panel with a clear
   message and "Try again" (a reload: what already arrived is in the cache).

   Performance marks (bench/boot.py): pyodide:start, pyodide:snapshot (the
   snapshot is inflated), pyodide:loaded (the interpreter is up), eleusis:zip
   (the engine is importable), pyscript:interpreter (PyScript asked for the
   interpreter). */
import { loadPyodide as load, version } from "./vendor/pyodide-314.0.7/pyodide.mjs";

/** The engine zip, relative to this module (works below any sub-path). */
const APP_ZIP = new URL("../build/app.zip", import.meta.url);
/** The Pyodide memory snapshot (tools/build.py SNAPSHOT), gzip-compressed. */
const SNAPSHOT = new URL("../build/pyodide-snapshot.bin", import.meta.url);
/** The page's standard library (tools/build.py STDLIB). */
const STDLIB = new URL("../build/python_stdlib.zip", import.meta.url);
/** Pyodide's whole standard library, for a module left out of STDLIB. */
const WHOLE_STDLIB = new URL(`./vendor/pyodide-${version}/python_stdlib.zip`, import.meta.url);
/** Where the whole library goes in Pyodide's file system when it is needed. */
const WHOLE_STDLIB_MOUNT = "/lib/python-stdlib-whole.zip";
/** Host names of this machine: a page served from it downloads nothing. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Where the zip goes in Pyodide's file system (tools/build.py APP_MOUNT). */
const APP_MOUNT = "/home/pyodide/eleusis-app.zip";

/** The build's manifest of sizes (tools/build.py precache_manifest). */
const MANIFEST = new URL("../build/precache.js", import.meta.url);
/** The runtime folder, relative to the site (where the manifest's names start). */
const RUNTIME = `static/vendor/pyodide-${version}/`;
/** Site-relative names of the files a boot downloads (the progress bar's total). */
const BOOT = [
  `${RUNTIME}pyodide.asm.wasm`, "build/python_stdlib.zip", `${RUNTIME}pyodide.asm.mjs`,
  `${RUNTIME}pyodide-lock.json`, "build/app.zip", "build/pyodide-snapshot.bin",
];
/** Of those, the ones counted when complete (see the header), not through fetch. */
const WHOLE = new Set([`${RUNTIME}pyodide.asm.wasm`, `${RUNTIME}pyodide.asm.mjs`]);
const SITE = new URL("../", import.meta.url);

/** Boot progress: expected bytes per file (from the manifest), bytes received. */
const progress = {
  expected: new Map(), received: new Map(), done: false, skipped: false, log: [],
};

/** A shell text in the player's language (index.html's eleusisI18n). */
function t(message, params) {
  const i18n = globalThis.eleusisI18n;
  if (i18n) return i18n.t(message, params);
  return message.replace(/\{(\w+)\}/g, (all, name) => (params && name in params ? String(params[name]) : all));
}

/** Show the progress (index.html: #loading-bar and #loading-text). */
function showProgress() {
  if (progress.done || progress.expected.size === 0) return;
  let expected = 0;
  let received = 0;
  for (const [name, size] of progress.expected) {
    expected += size;
    received += Math.min(size, progress.received.get(name) || 0);
  }
  const last = progress.log[progress.log.length - 1];
  if (last && last[0] === received && last[1] === expected) return;
  progress.log.push([received, expected]);
  const bar = document.getElementById("loading-bar");
  if (bar) {
    bar.max = expected;
    bar.value = received;
  }
  const text = document.getElementById("loading-text");
  if (text) {
    const lang = globalThis.eleusisI18n?.lang || "en";
    const mb = (n) => (n / 1e6).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    if (received < expected) {
      text.removeAttribute("data-i18n");  // a count: said again at the next progress
      text.textContent = t("Loading the game: {received} of {expected} MB",
        { received: mb(received), expected: mb(expected) });
    } else {
      text.setAttribute("data-i18n", "Starting the game…");  // follows the language switch
      text.textContent = t("Starting the game…");
    }
  }
}

/** [received, expected] each time the bar moved (for the tests). */
export function progressLog() {
  return progress.log.map((entry) => [...entry]);
}

/** The site-relative name of a URL if it is one of BOOT, else null. */
function bootName(url) {
  const href = new URL(url, location.href).href.split(/[?#]/)[0];
  if (!href.startsWith(SITE.href)) return null;
  const name = href.slice(SITE.href.length);
  return progress.expected.has(name) || BOOT.includes(name) ? name : null;
}

/** Count a response's body as it arrives (a clone; the page reads the original). */
async function count(name, response) {
  if (!response.ok || !response.body) return;
  const reader = response.clone().body.getReader();
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    progress.received.set(name, received);
    showProgress();
  }
  progress.received.set(name, Infinity);  // complete (a host may have sent it encoded)
  showProgress();
}

/** Follow the boot's downloads until Pyodide is up; return a function that stops. */
function trackDownloads() {
  const fetchBefore = globalThis.fetch;
  globalThis.fetch = async function (input, init) {
    const response = await fetchBefore.call(this, input, init);
    const name = bootName(input instanceof Request ? input.url : String(input));
    if (name !== null && !WHOLE.has(name)) count(name, response).catch(() => {});
    return response;
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const name = bootName(entry.name);
      if (name !== null && WHOLE.has(name)) {
        progress.received.set(name, Infinity);
        showProgress();
      }
    }
  });
  observer.observe({ type: "resource", buffered: true });
  fetchBefore(MANIFEST, { cache: "no-cache" })
    .then((response) => (response.ok ? response.text() : Promise.reject()))
    .then((text) => {
      const sizes = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)).sizes;
      for (const name of BOOT) {
        if (sizes[name] && !(progress.skipped && name === "build/pyodide-snapshot.bin")) {
          progress.expected.set(name, sizes[name]);
        }
      }
      showProgress();
    })
    .catch(() => {});  // no manifest (a bare build): the bar stays indeterminate
  return () => {
    globalThis.fetch = fetchBefore;
    observer.disconnect();
    for (const name of progress.expected.keys()) progress.received.set(name, Infinity);
    showProgress();
    progress.done = true;
  };
}

/** Show that the game could not download, with a retry (index.html's panel). */
function showDownloadError(error) {
  const detail = String(error && error.stack ? error.stack : error);
  globalThis.eleusisBoot?.showError?.(
    t("Part of the game could not be downloaded. Check your connection and try again: what already arrived is kept."),
    detail,
  );
  const retry = document.getElementById("reload");
  if (retry) {
    retry.setAttribute("data-i18n", "Try again");
    retry.textContent = t("Try again");
  }
  const text = document.getElementById("loading-text");
  if (text) {
    text.setAttribute("data-i18n", "The download stopped.");
    text.textContent = t("The download stopped.");
  }
}

/** How this page's Pyodide started: "snapshot" or "plain (why not)"; null before. */
export let bootMode = null;

let started = null;

/** Fetch the engine zip; reject with a readable error. */
async function fetchApp() {
  const response = await fetch(APP_ZIP);
  if (!response.ok) throw new Error(`${APP_ZIP.pathname}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetch and inflate the snapshot; reject when there is none or it is unusable. */
async function fetchSnapshot() {
  const response = await fetch(SNAPSHOT);
  if (!response.ok) throw new Error(`${SNAPSHOT.pathname}: HTTP ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  }
  performance.mark("pyodide:snapshot");
  await nextTask();  // Pyodide's restore in a task of its own, not the inflation's last
  return bytes;
}

/** The inflated snapshot, kept only to be released (see release()). */
let snapshotBytes = null;

/** Free the snapshot's 31 MB once Pyodide has copied it into its memory.

    Pyodide keeps its options, this promise and so these bytes, for the
    page's whole life: detaching the buffer frees them whoever holds them. */
function release() {
  if (snapshotBytes !== null && typeof snapshotBytes.buffer.transfer === "function") {
    snapshotBytes.buffer.transfer(0);
  }
}

/** Bytes of the snapshot still held: 0 once released, -1 if there was none. */
export function heldSnapshotBytes() {
  return snapshotBytes === null ? -1 : snapshotBytes.byteLength;
}

/** Whether this visit starts from the snapshot: [yes, why] (see the header). */
export function chooseBoot() {
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    return [true, "the service worker holds it"];
  }
  if (LOOPBACK.has(location.hostname)) return [true, "served from this machine"];
  return [false, "a first visit: the snapshot is fetched for the next one"];
}

/** Why this visit started the way it did (chooseBoot), for the tests and benchmarks. */
export let bootChoice = null;

/** Pyodide's options common to both ways of starting. */
const OPTIONS = { stdLibURL: STDLIB.href };

/** Start Pyodide from the snapshot when it pays, else (or when that fails) the plain way. */
async function boot() {
  let why;
  const [useSnapshot, reason] = chooseBoot();
  bootChoice = reason;
  if (!useSnapshot) {
    progress.expected.delete("build/pyodide-snapshot.bin");  // not downloaded
    progress.skipped = true;
    const pyodide = await load(OPTIONS);
    bootMode = `plain (${reason})`;
    return pyodide;
  }
  try {
    const snapshot = fetchSnapshot().then((bytes) => (snapshotBytes = bytes));
    snapshot.catch(() => {});  // handled by load(), which awaits it
    const pyodide = await load({ ...OPTIONS, _loadSnapshot: snapshot });
    release();
    bootMode = "snapshot";
    return pyodide;
  } catch (error) {
    release();
    progress.expected.delete("build/pyodide-snapshot.bin");  // not downloaded after all
    progress.skipped = true;
    why = String(error && error.message ? error.message : error).split("\n")[0];
    console.warn("Eleusis: starting Pyodide without its snapshot:", why);
  }
  const pyodide = await load(OPTIONS);
  bootMode = `plain (${why})`;
  return pyodide;
}

/** Put Pyodide's whole standard library in the file system (once) and return
    its path: called, synchronously, by eleusis_web.stdlib_fallback when a
    module left out of the page's library is imported. A synchronous request,
    since an import cannot wait: it happens at most once a page, and only on a
    path the build did not foresee. Throws when the download fails. */
function wholeStdlib(pyodide) {
  return () => {
    const request = new XMLHttpRequest();
    request.open("GET", WHOLE_STDLIB.href, false);
    request.overrideMimeType("text/plain; charset=x-user-defined");  // bytes, as text
    request.send();
    if (request.status !== 200) throw new Error(`${WHOLE_STDLIB.pathname}: HTTP ${request.status}`);
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    pyodide.FS.writeFile(WHOLE_STDLIB_MOUNT, bytes);
    return WHOLE_STDLIB_MOUNT;
  };
}

/** Make the engine importable in `pyodide` (see the header); renew a restored state. */
function install(pyodide, zip) {
  pyodide.FS.writeFile(APP_MOUNT, zip);
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(APP_MOUNT)})`);
  const fallback = pyodide.pyimport("eleusis_web.stdlib_fallback");
  try {
    fallback.install(wholeStdlib(pyodide));
  } finally {
    fallback.destroy();
  }
  if (bootMode === "snapshot") {
    const snapshot = pyodide.pyimport("eleusis_web.snapshot");
    try {
      snapshot.refresh(navigator.language || "", navigator.userAgent || "");
    } finally {
      snapshot.destroy();
    }
  }
  performance.mark("eleusis:zip");
}

/** Resolve in a new task (after the browser has had a turn to paint and answer). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Start loading Pyodide and the engine (once); return the promise of both. */
export function start() {
  if (started === null) {
    performance.mark("pyodide:start");
    const untrack = trackDownloads();
    const zip = fetchApp();
    const interpreter = boot().then((pyodide) => {
      performance.mark("pyodide:loaded");
      return pyodide;
    });
    started = Promise.all([interpreter, zip]).then(async ([pyodide, bytes]) => {
      untrack();
      // Each step in a task of its own, not in the task that finished the
      // restore: the page can paint, scroll and answer in between.
      await nextTask();
      install(pyodide, bytes);
      await nextTask();
      return pyodide;
    });
    started.catch(showDownloadError);
  }
  return started;
}

/** PyScript's entry point: the interpreter started by start(), configured. */
export async function loadPyodide(options = {}) {
  performance.mark("pyscript:interpreter");
  const pyodide = await start();
  if (options.stdout) pyodide.setStdout({ batched: options.stdout });
  if (options.stderr) pyodide.setStderr({ batched: options.stderr });
  if (options.packages && options.packages.length) await pyodide.loadPackage(options.packages);
  return pyodide;
}

export { version };
