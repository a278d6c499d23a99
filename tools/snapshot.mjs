/* Make a memory snapshot of a freshly started Pyodide, under Node.

   Used by tools/build.py at build time (never by the page). Starting CPython
   in WebAssembly (unpacking the standard library, initialising the
   interpreter, importing Pyodide's own modules) is most of a cold boot: about
   2.5 s of main-thread work on our machines. A snapshot is the interpreter's
   whole memory right after that start; static/pyodide-early.mjs hands it to
   loadPyodide({_loadSnapshot}) and Pyodide restores it instead of starting
   CPython again (Cloudflare's Python Workers boot the same way).

   The snapshot is of Pyodide with a few standard-library modules imported
   (PRELOAD): no module of ours, nothing of the page, no JavaScript object
   held (Pyodide refuses to snapshot those), so it only changes with the
   vendored Pyodide (and this script). What it freezes that must not be shared
   (the `random` module's seed, the time zone, the language and the runtime
   name) is renewed in the page right after the restore
   (src/eleusis_web/snapshot.py). TZ is UTC here so the frozen zone is the
   same on every build machine, and the program name is the browser's.

   Usage: node tools/snapshot.mjs <pyodide-folder> <out-file> [<stdlib-zip>]
   <stdlib-zip>: the standard library the page loads (tools/build.py
   stdlib_zip); the snapshot must be made with the very zip the page gives
   Pyodide (the import system caches offsets into it).
   The output is gzip-compressed (31 MB of memory, 6 MB compressed); the page
   inflates it with DecompressionStream. Prints one JSON line: sizes, time. */
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";
import path from "node:path";

/* Zero the memory no one uses before it is saved: blocks malloc has freed
   keep what they last held (source text read from the standard-library zip,
   compressed bytes, the compiler's scratch), which gzip cannot squeeze;
   zeros cost nothing. Takes every free block malloc hands out (largest
   first, never more than the heap already has: the heap must not grow, see
   tools/build.py check_snapshot_fits), zeroes it, then frees them all; and
   zeroes the memory above the break. What lives is untouched. Returns the
   bytes zeroed. (The snapshot shrank from 6.2 MB to 5.3 MB of gzip.) */
function zeroFreeMemory(Module) {
  const heap = Module.HEAPU8.length;
  const margin = 1 << 20;
  const blocks = [];
  let zeroed = 0;
  for (let size = 1 << 22; size >= 64; size >>= 1) {
    while (Module._sbrk(0) + size + margin <= heap) {
      const before = Module._sbrk(0);
      const block = Module._malloc(size);
      if (!block) break;
      blocks.push(block);
      Module.HEAPU8.fill(0, block, block + size);
      zeroed += size;
      if (Module._sbrk(0) !== before) break;  // fresh memory: no free block this size left
    }
  }
  for (const block of blocks) Module._free(block);
  const top = Module._sbrk(0);
  Module.HEAPU8.fill(0, top, heap);
  if (Module.HEAPU8.length !== heap) throw new Error("zeroFreeMemory grew the heap");
  return zeroed + (heap - top);
}

const [folderArg, outArg, stdlibArg] = process.argv.slice(2);
if (!folderArg || !outArg) {
  process.stderr.write("usage: node tools/snapshot.mjs <pyodide-folder> <out-file>\n");
  process.exit(2);
}
const folder = path.resolve(folderArg);
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const started = performance.now();
const pyodide = await loadPyodide({
  indexURL: folder + path.sep,
  ...(stdlibArg ? { stdLibURL: path.resolve(stdlibArg) } : {}),
  _makeSnapshot: true,
  // What Emscripten calls the program in a browser (Node's default would be
  // this script's path): sys.executable, sys.orig_argv and $_ as in the page.
  _sysExecutable: "./this.program",
  stdout: () => {},
  stderr: () => {},
});
// Standard-library modules the page imports beyond Pyodide's start (the
// engine's): the standard library ships as source, so each would be compiled
// at every visit (difflib and fractions take 40 ms each). Imported here they
// are in the snapshot, compiled. The page's diagnostics list any module it
// still compiles from the standard library (a browser test keeps it empty).
// (tools/build.py SNAPSHOT_PRELOAD names the same: a test checks they agree.)
const PRELOAD = ["datetime", "difflib", "fractions", "hashlib", "numbers"];
pyodide.runPython(`import ${PRELOAD.join(", ")}; import gc; gc.collect()`);
const zeroed = zeroFreeMemory(pyodide._module);
const memory = pyodide.makeMemorySnapshot();
const packed = gzipSync(memory, { level: 9 });
writeFileSync(outArg, packed);
process.stdout.write(JSON.stringify({
  memory: memory.length,
  gzip: packed.length,
  zeroed,
  ms: Math.round(performance.now() - started),
}) + "\n");
