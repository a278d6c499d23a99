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

   Performance marks (bench/boot.py): pyodide:start, pyodide:snapshot (the
   snapshot is inflated), pyodide:loaded (the interpreter is up), eleusis:zip
   (the engine is importable), pyscript:interpreter (PyScript asked for the
   interpreter). */
import { loadPyodide as load, version } from "./vendor/pyodide-314.0.7/pyodide.mjs";

/** The engine zip, relative to this module (works below any sub-path). */
const APP_ZIP = new URL("../build/app.zip", import.meta.url);
/** The Pyodide memory snapshot (tools/build.py SNAPSHOT), gzip-compressed. */
const SNAPSHOT = new URL("../build/pyodide-snapshot.bin", import.meta.url);
/** Where the zip goes in Pyodide's file system (tools/build.py APP_MOUNT). */
const APP_MOUNT = "/home/pyodide/eleusis-app.zip";

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

/** Start Pyodide from the snapshot, or the plain way when that fails. */
async function boot() {
  let why;
  try {
    const snapshot = fetchSnapshot().then((bytes) => (snapshotBytes = bytes));
    snapshot.catch(() => {});  // handled by load(), which awaits it
    const pyodide = await load({ _loadSnapshot: snapshot });
    release();
    bootMode = "snapshot";
    return pyodide;
  } catch (error) {
    release();
    why = String(error && error.message ? error.message : error).split("\n")[0];
    console.warn("Eleusis: starting Pyodide without its snapshot:", why);
  }
  const pyodide = await load();
  bootMode = `plain (${why})`;
  return pyodide;
}

/** Make the engine importable in `pyodide` (see the header); renew a restored state. */
function install(pyodide, zip) {
  pyodide.FS.writeFile(APP_MOUNT, zip);
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(APP_MOUNT)})`);
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

/** Start loading Pyodide and the engine (once); return the promise of both. */
export function start() {
  if (started === null) {
    performance.mark("pyodide:start");
    const zip = fetchApp();
    const interpreter = boot().then((pyodide) => {
      performance.mark("pyodide:loaded");
      return pyodide;
    });
    started = Promise.all([interpreter, zip]).then(([pyodide, bytes]) => {
      install(pyodide, bytes);
      return pyodide;
    });
    started.catch((error) => {
      globalThis.eleusisBoot?.showError?.(
        "The game could not load. Check your connection and reload the page.",
        String(error && error.stack ? error.stack : error),
      );
    });
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
