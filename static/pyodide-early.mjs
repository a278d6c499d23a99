/* Start Pyodide at once, and hand the same interpreter to PyScript.

   PyScript loads its core, fetches and parses pyscript.toml and only then
   imports the interpreter: on a cold boot that puts several hundred
   milliseconds of script loading in front of the long part (compiling the
   WebAssembly and starting CPython). index.html calls start() as soon as
   this small module is loaded, so that work overlaps PyScript's own start.

   pyscript.toml names this module as the `interpreter`: PyScript imports it
   and calls its loadPyodide(options) and reads `version`, exactly as it would
   with pyodide.mjs. The same module instance is shared, so PyScript receives
   the interpreter that is already starting. Its stdout/stderr hooks are
   installed when it asks. */
import { loadPyodide as load, version } from "./vendor/pyodide-314.0.7/pyodide.mjs";

let started = null;

/** Start loading the vendored Pyodide (once); return the promise of it. */
export function start() {
  if (started === null) {
    performance.mark("pyodide:start");
    started = load().then((pyodide) => {
      performance.mark("pyodide:loaded");
      return pyodide;
    });
  }
  return started;
}

/** PyScript's entry point: the interpreter started by start(), configured. */
export async function loadPyodide(options = {}) {
  const pyodide = await start();
  if (options.stdout) pyodide.setStdout({ batched: options.stdout });
  if (options.stderr) pyodide.setStderr({ batched: options.stderr });
  if (options.packages && options.packages.length) await pyodide.loadPackage(options.packages);
  return pyodide;
}

export { version };
