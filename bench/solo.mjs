/* The developer page bench/solo.html: the scientists' Solo harness in this
   page's Pyodide.

   Loads the vendored Pyodide and the engine (build/app.zip, tools/build.py)
   through static/pyodide-early.mjs, the app's own loader (one place names
   the runtime's version), then drives eleusis.bench.SoloRun, the same
   harness code as `python -m eleusis.bench solo`, in slices of about 15 ms,
   yielding to the event loop between slices so the page keeps responding and
   shows its progress. Options come from the URL query (see solo.html).
   Everything a rules file, the query or the harness says is shown with
   textContent only. */
import { start as startPyodide, version } from "../static/pyodide-early.mjs";

const SLICE_MS = 15;
const RULE_FILES = new Set(["others", "library"]);
const $ = (id) => document.getElementById(id);

/** The harness glue, run once in its own namespace; JSON in and out. */
const GLUE = `
import json, sys
from eleusis.bench import SoloRun

_run = None

def start(options_json):
    global _run
    o = json.loads(options_json)
    try:
        _run = SoloRun(o["text"], rounds=o["rounds"], seed=o["seed"], level=o["strength"],
                       limit=o["limit"], counterexamples=o["counterexamples"])
    except ValueError as err:
        return json.dumps({"error": str(err)})
    return json.dumps({"rules": [{"name": r.name, "text": r.text, "line": r.line}
                                 for r in _run.rules],
                       "skipped": _run.skipped, "python": sys.version.split()[0]})

def advance(budget_ms):
    return json.dumps(_run.advance(budget_ms))
`;

function setState(state, message) {
  document.body.dataset.state = state;
  if (message !== undefined) $("status").textContent = message;
}

/** Give the browser its turn (input, rendering) without timer clamping. */
function yieldToLoop() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** The options of the URL query, also written back into the form. */
function readOptions() {
  const q = new URLSearchParams(location.search);
  const form = $("options");
  for (const name of ["rules", "rounds", "seed", "strength", "limit", "text"]) {
    if (q.has(name)) form.elements[name].value = q.get(name);
  }
  form.elements.cx.checked = q.get("cx") === "0";
  form.addEventListener("submit", () => {
    // keep the URL short: send the list only when it is used, the limit when set
    form.elements.text.disabled = form.elements.rules.value !== "text";
    form.elements.limit.disabled = form.elements.limit.value === "";
  });
  return {
    run: q.get("run") === "1",
    rules: form.elements.rules.value,
    text: form.elements.text.value,
    rounds: form.elements.rounds.value,
    seed: form.elements.seed.value,
    strength: form.elements.strength.value,
    limit: form.elements.limit.value,
    counterexamples: !form.elements.cx.checked,
  };
}

/** A whole number from a form field, or an Error naming the field. */
function integer(value, name) {
  const s = String(value).trim();
  if (!/^-?\d+$/.test(s)) throw new Error(`${name} must be a whole number, not "${s}"`);
  return Number.parseInt(s, 10);
}

async function rulesText(opt) {
  if (opt.rules === "text") return opt.text;
  if (!RULE_FILES.has(opt.rules)) throw new Error(`unknown rules "${opt.rules}"`);
  const response = await fetch(new URL(`rules/${opt.rules}.txt`, import.meta.url));
  if (!response.ok) throw new Error(`cannot fetch bench/rules/${opt.rules}.txt: ${response.status}`);
  return response.text();
}

async function boot() {
  const t0 = performance.now();
  const pyodide = await startPyodide();
  // The app's loader puts build/app.zip on sys.path itself (zipimport, with
  // bytecode); should it not, unpack the zip here.
  if (!pyodide.runPython("__import__('importlib.util').util.find_spec('eleusis') is not None")) {
    const response = await fetch(new URL("../build/app.zip", import.meta.url));
    if (!response.ok) throw new Error(`cannot fetch build/app.zip (${response.status}): run tools/build.py`);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/home/pyodide/eleusis-app" });
    pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/eleusis-app')");
  }
  const ns = pyodide.globals.get("dict")();
  pyodide.runPython(GLUE, { globals: ns });
  return { pyodide, ns, bootMs: performance.now() - t0 };
}

function showRules(rules, skipped) {
  const list = $("rules");
  for (const r of rules) {
    const li = document.createElement("li");
    li.className = "mono";
    li.textContent = `${r.name}: ${r.text}  (line ${r.line})`;
    list.append(li);
  }
  const bad = $("skipped");
  for (const message of skipped) {
    const li = document.createElement("li");
    li.className = "mono";
    li.textContent = message;
    bad.append(li);
  }
  if (!skipped.length) {
    const li = document.createElement("li");
    li.textContent = "none";
    bad.append(li);
  }
}

async function run(env, opt) {
  const options = {
    text: await rulesText(opt),
    rounds: integer(opt.rounds, "rounds"),
    seed: integer(opt.seed, "seed"),
    strength: opt.strength,
    limit: opt.limit === "" ? null : integer(opt.limit, "limit"),
    counterexamples: opt.counterexamples,
  };
  const started = JSON.parse(env.ns.get("start")(JSON.stringify(options)));
  if (started.error) throw new Error(started.error);
  showRules(started.rules, started.skipped);
  const rules = started.rules;
  const total = rules.length * options.rounds;
  const bar = $("progress");
  bar.max = Math.max(total, 1);
  const advance = env.ns.get("advance");
  const t0 = performance.now();
  performance.mark("solo:run");
  setState("running", "Preparing the scientists' hypotheses…");
  let step;
  for (;;) {
    step = JSON.parse(advance(SLICE_MS));
    if (step.lines.length) $("lines").textContent += step.lines.join("\n") + "\n";
    if (step.done) break;
    if (step.phase === "play") {
      const k = step.rule;
      const r = step.round ?? options.rounds - 1;
      bar.value = k * options.rounds + r;
      $("status").textContent = `Rule ${k + 1}/${rules.length} (${rules[k].name}), ` +
        `round ${r + 1}/${options.rounds}; ${step.decisions} decisions so far`;
    }
    await yieldToLoop();
  }
  advance.destroy();
  performance.mark("solo:done");
  const report = step.report;
  report.runtime = `Pyodide ${version} (Python ${started.python})`;
  report.browser = navigator.userAgent;
  report.pyodide_boot_ms = Math.round(env.bootMs);
  report.run_ms = Math.round(performance.now() - t0);
  report.slice_ms = SLICE_MS;
  bar.value = bar.max;
  $("summary").textContent = step.summary;
  $("json").textContent = JSON.stringify(report, null, 1);
  setState("done", `Done: ${report.rounds} rounds in ${(report.run_ms / 1000).toFixed(1)} s ` +
    `(Pyodide booted in ${(env.bootMs / 1000).toFixed(1)} s).`);
}

function lastLine(err) {
  const text = String(err && err.message ? err.message : err).trim().split("\n");
  return text[text.length - 1];
}

async function main() {
  const opt = readOptions();
  let env;
  try {
    env = await boot();
  } catch (err) {
    console.error(err);
    setState("error", `Error while loading: ${lastLine(err)}`);
    return;
  }
  document.body.dataset.ready = "1";
  if (!opt.run) {
    setState("idle", `Pyodide ${version} is ready: choose the options and press Run.`);
    return;
  }
  try {
    await run(env, opt);
  } catch (err) {
    console.error(err);
    setState("error", `Error: ${lastLine(err)}`);
  }
}

main();
