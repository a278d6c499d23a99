/* Compile Python sources to bytecode with the vendored Pyodide, under Node.

   Used by tools/build.py at build time (never by the page): the browser runs
   CPython 3.14 in WebAssembly and our machines only have an older CPython, so
   the bytecode must come from the very interpreter the page runs.

   Usage: node tools/pyc.mjs <pyodide-folder>  (JSON on stdin, JSON on stdout)
   stdin:  [{"dfile": "/path/shown/in/tracebacks.py", "source": "<base64>"}, ...]
   stdout: {"cache_tag": "cpython-314", "pycs": ["<base64>", ...]}

   Each .pyc is hash-based and *checked* (PEP 552): the importer hashes the
   source next to it and compiles the source instead when they differ, so a
   stale .pyc can cost time but never run old code. */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const folder = path.resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
const jobs = JSON.parse(readFileSync(0, "utf8"));
// PYTHONNODEBUGRANGES: bytecode without column ranges (tracebacks keep
// their lines, lose the carets): about a fifth smaller.
const pyodide = await loadPyodide({
  indexURL: folder + path.sep, stdout: () => {}, stderr: () => {},
  env: { PYTHONNODEBUGRANGES: "1" },
});
pyodide.globals.set("jobs_json", JSON.stringify(jobs));
const result = pyodide.runPython(`
import base64, json, os, py_compile, sys
out = []
for i, job in enumerate(json.loads(jobs_json)):
    src, pyc = f"/tmp/job{i}.py", f"/tmp/job{i}.pyc"
    with open(src, "wb") as f:
        f.write(base64.b64decode(job["source"]))
    py_compile.compile(src, cfile=pyc, dfile=job["dfile"], doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    with open(pyc, "rb") as f:
        out.append(base64.b64encode(f.read()).decode())
    os.remove(src)
    os.remove(pyc)
json.dumps({"cache_tag": sys.implementation.cache_tag, "pycs": out})
`);
process.stdout.write(result);
