// Run the computer scientists' Solo benchmark inside Pyodide (the browser's
// Python, CPython 3.14 compiled to WebAssembly) under Node, so the Pyodide
// figures of docs/performance.md are measured, not guessed.
//
//   node bench/ai_solo_pyodide.mjs [--rules FILE] [--rounds N] [--seed S] [--strength P]
//                                  [--no-counterexamples]
//   node bench/ai_solo_pyodide.mjs --prepare [--strength P] [--budget-ms B]
//
// --prepare times the sliced preparation of the first scientist instead
// (`python -m eleusis.bench prepare`): the longest slice is the longest task
// a page driving Scientist.prepare_steps() from timers would run.
//
// It loads the vendored Pyodide (static/vendor/pyodide-*), mounts src/ and
// bench/ read-only, and runs `python -m eleusis.bench solo ... --json` there.
// The same engine code runs in the page; a page-level run with a long-task
// observer belongs to the web face.
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const vendor = join(root, "static", "vendor");
const dir = readdirSync(vendor).filter((d) => d.startsWith("pyodide-")).sort().pop();
if (!dir) throw new Error("no vendored Pyodide in static/vendor");
const { loadPyodide } = await import(join(vendor, dir, "pyodide.mjs"));

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const rules = opt("--rules", "bench/rules/others.txt");
const rounds = opt("--rounds", "3");
const seed = opt("--seed", "0");
const strength = opt("--strength", "strong");

const prepare = args.includes("--prepare");
const budget = opt("--budget-ms", "10");
const noCx = args.includes("--no-counterexamples") ? ', "--no-counterexamples"' : "";

const t0 = performance.now();
const py = await loadPyodide({ indexURL: join(vendor, dir) + "/" });
const boot = performance.now() - t0;
py.FS.mkdirTree("/work/src");
py.FS.mkdirTree("/work/bench");
py.FS.mount(py.FS.filesystems.NODEFS, { root: join(root, "src") }, "/work/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: join(root, "bench") }, "/work/bench");
if (prepare) {
  const rep = py.runPython(`
import io, json, sys, contextlib
sys.path.insert(0, "/work/src")
from eleusis.bench import main
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    main(["prepare", "--strength", "${strength}", "--budget-ms", "${budget}"])
report = json.loads(buf.getvalue())
report["python"] = sys.version.split()[0]
json.dumps(report)
`);
  const r = JSON.parse(rep);
  r.pyodide_boot_ms = Math.round(boot);
  console.log(JSON.stringify(r, null, 1));
  process.exit(0);
}
const out = py.runPython(`
import io, json, sys, contextlib
sys.path.insert(0, "/work/src")
from eleusis.bench import main
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    code = main(["solo", "--rules", "/work/${rules}", "--rounds", "${rounds}",
                 "--seed", "${seed}", "--strength", "${strength}", "--json"${noCx}])
report = json.loads(buf.getvalue())
report["per_rule"] = [{k: r[k] for k in ("name", "scores", "turns", "wrong_guesses")}
                      for r in report["per_rule"]]
report["python"] = sys.version.split()[0]
json.dumps(report)
`);
const report = JSON.parse(out);
report.pyodide_boot_ms = Math.round(boot);
console.log(JSON.stringify(report, null, 1));
