/* Trim Pyodide's standard library to what the page can import, as bytecode.

   Used by tools/build.py at build time (never by the page). Pyodide ships the
   whole standard library as one zip of sources (2.5 MB compressed, 614
   files); the page imports about 150 modules of it, and every one it imports
   is compiled in the browser at each plain start. This script, run by the
   vendored Pyodide under Node (the bytecode must come from the very
   interpreter the page runs, and the standard library's sources use syntax
   the build machine's Python may not parse), keeps the modules the page can
   reach and compiles them:

   * the roots (stdin, JSON list of dotted names: every standard-library
     module the page's own code imports anywhere, PyScript's package, what
     Pyodide's start imports, the snapshot's preloads);
   * and, from each kept module, every module it imports at its top level
     (outside functions and `if __name__ == "__main__":` blocks: what
     importing it needs). An import inside a
     function is left to run time; tools/build.py's `stdlib_rest` list and
     src/eleusis_web/stdlib_fallback.py fetch the whole standard library the
     first time a module left out is imported, so a path no one foresaw is
     slower once, never broken.

   Output: a zip of `name.pyc` only (without column ranges, see below) (hash-based, unchecked: there is no
   source to check against; compiled with the file name
   the full library would give in tracebacks), entries stored, not deflated:
   the host's gzip or brotli then compresses across modules (one compressed
   stream beats 150 small ones). Plus any data file of a kept package.

   Usage: node tools/stdlib.mjs <pyodide-folder> <out-zip>  (roots on stdin)
   stdout: {"kept": [...], "left_out": [...], "bytes": n} */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [folderArg, outArg] = process.argv.slice(2);
if (!folderArg || !outArg) {
  process.stderr.write("usage: node tools/stdlib.mjs <pyodide-folder> <out-zip>\n");
  process.exit(2);
}
const folder = path.resolve(folderArg);
const roots = JSON.parse(readFileSync(0, "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(folder, "pyodide.mjs")).href);
// PYTHONNODEBUGRANGES: bytecode without column ranges (tracebacks keep
// their lines, lose the carets): a fifth smaller.
const pyodide = await loadPyodide({
  indexURL: folder + path.sep, stdout: () => {}, stderr: () => {},
  env: { PYTHONNODEBUGRANGES: "1" },
});
pyodide.globals.set("roots_json", JSON.stringify(roots));
const result = pyodide.runPython(`
import ast, importlib.util, io, json, marshal, sys, zipfile

full = zipfile.ZipFile(f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip")
names = set(full.namelist())

def module_file(module):
    base = module.replace(".", "/")
    for name in (base + ".py", base + "/__init__.py"):
        if name in names:
            return name
    return None

MAIN_TESTS = {"__name__ == '__main__'", "'__main__' == __name__"}

def top_level_imports(tree, module, is_package):
    found = set()
    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and ast.unparse(child.test) in MAIN_TESTS:
                continue  # a script's own block: never run on import
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    parts = module.split(".") if is_package else module.split(".")[:-1]
                    parts = parts[: len(parts) - (child.level - 1)]
                    base = ".".join(parts + ([child.module] if child.module else []))
                else:
                    base = child.module
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)
    visit(tree)
    out = set()
    for name in found:
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return out

kept, todo, trees = set(), list(json.loads(roots_json)), {}
while todo:
    module = todo.pop()
    name = module_file(module)
    if module in kept or name is None:
        continue
    kept.add(module)
    source = full.read(name)
    tree = ast.parse(source, name)
    trees[module] = (name, source)
    todo.extend(top_level_imports(tree, module, name.endswith("/__init__.py")))
    # a package's parents are imported first
    todo.extend(".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1))

prefix = full.filename
out = io.BytesIO()
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as trimmed:
    packages = {name.rsplit("/", 1)[0] for name, _ in trees.values() if name.endswith("/__init__.py")}
    entries = {}
    for module, (name, source) in trees.items():
        code = compile(source, f"{prefix}/{name}", "exec", dont_inherit=True)
        header = importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + importlib.util.source_hash(source)
        entries[name + "c"] = header + marshal.dumps(code)
    for name in names:
        if not name.endswith((".py", "/")) and name.rsplit("/", 1)[0] in packages:
            entries[name] = full.read(name)
    for name in sorted(entries):
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.external_attr = 0o644 << 16
        trimmed.writestr(info, entries[name])
data = out.getvalue()
with open("/tmp/trimmed.zip", "wb") as f:
    f.write(data)

every = set()
for name in names:
    if name.endswith(".py"):
        every.add(name[:-3].removesuffix("/__init__").replace("/", "."))
json.dumps({"kept": sorted(kept), "left_out": sorted(every - kept), "bytes": len(data)})
`);
writeFileSync(outArg, pyodide.FS.readFile("/tmp/trimmed.zip"));
process.stdout.write(result);
