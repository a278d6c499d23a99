// Time eleusis.rules.from_english inside Pyodide (the browser's Python) under
// Node: the first call (which builds the lexicon) and every text of the plain
// English corpus (tests/rules/data/english_corpus.tsv). What the readings are
// is measured by bench/english_corpus.py; this measures how long they take.
//
//   node bench/english_corpus_pyodide.mjs
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const vendor = join(root, "static", "vendor");
const dir = readdirSync(vendor).filter((d) => d.startsWith("pyodide-")).sort().pop();
if (!dir) throw new Error("no vendored Pyodide in static/vendor");
const { loadPyodide } = await import(join(vendor, dir, "pyodide.mjs"));
const py = await loadPyodide({ indexURL: join(vendor, dir) + "/" });
py.FS.mkdirTree("/work/src");
py.FS.mkdirTree("/work/tests");
py.FS.mount(py.FS.filesystems.NODEFS, { root: join(root, "src") }, "/work/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: join(root, "tests") }, "/work/tests");
console.log(py.runPython(`
import sys, time
sys.path.insert(0, "/work/src")
from eleusis.rules import from_english
first = time.perf_counter()
from_english("red cards only")
first = time.perf_counter() - first
times = []
for line in open("/work/tests/rules/data/english_corpus.tsv", encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    text = line.split("\\t")[1]
    start = time.perf_counter()
    from_english(text)
    times.append(time.perf_counter() - start)
times.sort()
ms = lambda s: f"{s * 1000:.0f} ms"
(f"Pyodide (Python {sys.version.split()[0]}): first call {ms(first)}; {len(times)} texts: "
 f"median {ms(times[len(times) // 2])}, 90th percentile {ms(times[int(len(times) * 0.9)])}, "
 f"slowest {ms(times[-1])}")
`));
