"""Build /tmp/r21/ten501/LABELS.md from the markers, reasons.py and the checker's JSON results."""
import glob
import json
import os
import re
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(__file__))
from reasons import FILES, R  # noqa: E402

ROOT = "/tmp/r21/ten501"
RES = "/tmp/r21/checkers/results"
MARK = re.compile(r"#\s*(expect: TEN501|ok|either)$")
KIND = {"expect: TEN501": "expect", "ok": "ok", "either": "either"}

# markers straight from the sources
marks = []
for path in sorted(glob.glob(ROOT + "/t*.py") + glob.glob(ROOT + "/pkg_*/*.py")):
    rel = os.path.relpath(path, ROOT)
    for i, line in enumerate(open(path).read().split("\n"), 1):
        m = MARK.search(line.rstrip())
        if m:
            code = line.split("  # ")[0].strip() if "  # " in line else line.strip()
            marks.append((rel, i, KIND[m.group(1)], code))

# checker results
res = {}
for jf in glob.glob(RES + "/*.json"):
    d = json.load(open(jf))
    for ln in d["lines"]:
        rel = os.path.relpath(ln["path"], ROOT)
        res[(rel, ln["line"])] = ln

missing = [f"{f}:{l}" for f, l, _, _ in marks if f"{f}:{l}" not in R]
unchecked = [f"{f}:{l}" for f, l, _, _ in marks if (f, l) not in res]
if missing or unchecked:
    print("missing reasons:", missing)
    print("missing results:", unchecked)
    sys.exit(1)

tot = Counter(k for _, _, k, _ in marks)
per_unit = defaultdict(Counter)
for f, l, k, _ in marks:
    unit = f.split("/")[0] if "/" in f else f
    per_unit[unit][k] += 1
verdicts = Counter(res[(f, l)]["verdict"] for f, l, _, _ in marks)

out = []
w = out.append
w("# TEN501 held-out test set: graph-carrying values kept across iterations\n")
w("Rule under test: *a value that carries an autograd graph is kept across loop iterations / training steps / calls "
  "(appended, accumulated, stored on an object, class, module global, cache, queue, buffer), so every step's graph "
  "stays reachable.*\n")
w("## Totals\n")
w("| marker | count |")
w("|---|---|")
w(f"| `# expect: TEN501` | {tot['expect']} |")
w(f"| `# ok` | {tot['ok']} |")
w(f"| `# either` | {tot['either']} |")
w(f"| **all marked lines** | {sum(tot.values())} |\n")
n_single = len([u for u in per_unit if u.endswith('.py')])
w(f"{n_single} single-file programs (`t01`..`t{n_single:02d}`) and 2 packages (`pkg_a`, `pkg_b`).\n")
w("| program | expect | ok | either |")
w("|---|---|---|---|")
for unit in sorted(per_unit):
    c = per_unit[unit]
    w(f"| `{unit}` | {c['expect']} | {c['ok']} | {c['either']} |")
w("")
w("Run-time check verdicts over all marked lines: " +
  ", ".join(f"{k}={v}" for k, v in sorted(verdicts.items())) + " (INFO = `# either`, not judged).\n")

w("## How to run\n")
w("Every program is self-contained, CPU only, calls `torch.manual_seed(0)` and `torch.set_num_threads(1)`, "
  "runs in a few seconds (mostly `import torch`), exits 0 and prints numbers computed from what it stored.\n")
w("```sh\ncd /tmp/r21/ten501\npython t01_train_loop_losses.py      # any t*.py\npython -m pkg_a.main\npython -m pkg_b.main\n```\n")
w("Python 3.11, torch 2.13 (CPU), numpy (t04, t07). Some programs emit torch's `UserWarning` about converting a "
  "tensor that requires grad to a scalar (`float(loss)`): that is expected.\n")

w("## How the labels were checked\n")
w("The checker lives outside this folder (`/tmp/r21/checkers/check_ten501.py`, driver `run_all.sh`; it is not part of the set). "
  "It runs a program under `sys.settrace` and, each time a marked line finishes, inspects *the value handed to the keeper*:\n")
w("* assignment / augmented assignment: the target after the line (for a subscript of a tensor, the whole tensor);")
w("* `append/appendleft/extend/insert/add/put/update/setdefault` on a builtin container: the elements that are new in the container;")
w("* in-place tensor methods (`buf.mul_(m).add_(v)`): the receiver tensor;")
w("* other calls: the very objects the Python callee receives (captured on its `call` event, bound `self` and "
  "`functools.partial` arguments excluded); for C callees (`setattr`, `heapq.heappush`, `generator.send`, ...) the "
  "call-site arguments re-evaluated after the line.\n")
w("Tensors are searched inside lists/tuples/NamedTuples/dicts/sets/deques/dataclasses. A line *shows a graph* when a "
  "tensor with a `grad_fn` is found.\n")
w("On top of that the checker verifies that the keeping really spans iterations: the `grad_fn` of every handed tensor "
  "is tagged (line, execution number) in `node.metadata`; at later executions the keeper itself (assignment target, "
  "container, callee receiver + class attributes + closure cells + partial args + module globals named by the callee) "
  "is searched for graph tensors and their autograd graphs are walked through `next_functions`; the line counts as "
  "*retained* when a tag from an earlier execution is reachable from its own keeper.\n")
w("Pass criteria: every `expect` line showed a graph on >= 2 executions **and** was retained by its keeper; every "
  "`ok` line executed >= 1 time and never showed a graph. `either` lines are only reported. Every marked line in this "
  "set passes. In addition, a discovery run (`--discover`) probed every unmarked assignment/call line; the only unmarked "
  "lines that keep graphs are the keepers' own internal lines (`self.sum += val * n`, `self.history[k].append(v)`, "
  "`TD_LOG.append(td_error)`, ...), whose caller-side line is marked, plus the callback dispatcher `cb.on_train_batch_end(batch, logs)` "
  "inside CallbackList and the per-step `batch = Transition(*zip(*mem.sample(...)))` temporary in t08 (a re-created "
  "sample of already-kept transitions).\n")

w("## Conventions\n")
w("* Markers sit at the end of a single-line statement: `# expect: TEN501`, `# ok`, `# either`. Only marked lines are scored.")
w("* `# expect: TEN501` is put on the user-code line where the graph-carrying value is handed to something that outlives "
  "the iteration: the `append`/`+=`/item store/attribute store, or the call that passes it to a keeper object or helper "
  "(meter, logger, writer, callback list, buffer, closure, partial, lambda, function in another module). The keeper's own "
  "generic internal lines are left unmarked when a caller-side line exists; they are marked only when there is no "
  "caller-side line (decorator `_STEP_LOG.append(out)` in t23, forward hook `activations[name].append(output)` in t25, "
  "module `forward` buffer updates in t26, `self.teacher_cache[idx] = logits` in t13).")
w("* A keeper that converts internally (`.item()`/`float()`) has its *storing* line marked `# ok` (t03:49, t28:35, "
  "pkg_a/metrics.py:32); the caller line that hands it a graph tensor is then left unmarked.")
w("* Lines where the stored value is built by calling a keeper are written as expression statements "
  "(`accumulate(mse, n)`, `early_stopping(val_loss, model)`) so that the marked line is the hand-over itself.")
w("* `# either`: intentional accumulation consumed by a single backward and then cleared/re-created (REINFORCE/A2C "
  "rollout lists, micro-batch sums), or a single overwritten slot that keeps at most one step's graph "
  "(`state.last_output = out`, `latest['fc2'] = output`, `setattr(self, f'last_{name}', value)`, "
  "`log_last('focal', focal)`, the LSTM `hidden` before `repackage_hidden`).")
w("* `# ok` lines are true negatives at run time: `.item()`, `float()`, `.detach()`, `.tolist()`, values computed under "
  "`torch.no_grad()` / `@torch.no_grad()` / `inference_mode()` / `set_grad_enabled(False)`, `state_dict()` tensors and "
  "`.data`, gradients from backward hooks, argmax/eq/bincount results, `clip_grad_norm_` results, frozen-parameter "
  "encoders, a leaf Parameter, Python scalars.\n")

w("## Notable / less certain labels\n")
w("* `t09_frame_stack.py:95` (`latent_stack.push(z)`, expect): the deque has `maxlen=4`, so memory is bounded; graphs of "
  "past steps still stay reachable across iterations, hence `expect`. A linter that only flags unbounded growth may disagree.")
w("* `t18_rnn_lm.py:66` (expect): the hand-over is the tuple assignment `output, hidden = model(data, hidden)` inside an "
  "`evaluate()` that has neither `no_grad` nor `repackage_hidden`; the same statement in `train()` (:93) is `either` "
  "because hidden is detached at the top of the next iteration.")
w("* `t14_ema_teacher.py:46` and `t26_running_stats_module.py:25` are in-place updates (`mul_().add_()`) of tensors that do "
  "not require grad with a grad-requiring operand: the tensor itself silently becomes part of the graph.")
w("* `t12_moco_queue.py:63` (ok) has no `no_grad`, but the key encoder's parameters have `requires_grad=False`, so the "
  "keys carry no graph.  `t34_multitask_uncertainty.py:78` (ok) stores the leaf `nn.Parameter` itself (no `grad_fn`).")
w("* `t12_moco_queue.py:98` (expect) slices the bank to the last K rows, yet the `torch.cat` chain keeps every previous step.")
w("* `t04_early_stopping.py:105`, `t17_hparam_search.py:50/52`, `t19_eval_forgot_no_grad.py:82`, `t18_rnn_lm.py:108`, "
  "`t11_vae.py:92`, `pkg_a/main.py:26`: the graph is created in a function (evaluate/train/predict/tracker.avg) and "
  "returned; the caller's store is the marked line.")
w("* Unmarked but graph-handing call sites that are *not* keeping: `t28_writers.py:84` (FloatWriter converts with "
  "`float()`), `t30_memory_bank.py:71` (`update_memory` is `@torch.no_grad()`), `pkg_a/trainer.py:36` "
  "(ScalarTracker converts). They are left unmarked because the value handed over does carry "
  "a graph even though nothing keeps it.\n")

w("## Per-file labels\n")
w("Columns: line, marker, statement, reason; `runs/graph` = executions of the line / executions where the handed value "
  "had a `grad_fn` (from the checker).\n")
by_file = defaultdict(list)
for f, l, k, code in marks:
    by_file[f].append((l, k, code))
units = sorted(per_unit)
for unit in units:
    files = [f for f in sorted(by_file) if (f == unit or f.startswith(unit + "/"))]
    w(f"### `{unit}`\n")
    w(FILES.get(unit, "") + "\n")
    w("| line | marker | statement | runs/graph | reason |")
    w("|---|---|---|---|---|")
    for f in files:
        for l, k, code in by_file[f]:
            r = res[(f, l)]
            loc = f"{f}:{l}" if "/" in f else str(l)
            code_md = code.replace("|", "\\|")
            if len(code_md) > 90:
                code_md = code_md[:87] + "..."
            w(f"| {loc} | {k} | `{code_md}` | {r['execs']}/{r['graph_execs']} | {R[f'{f}:{l}'].replace('|', '/')} |")
    w("")

open(os.path.join(ROOT, "LABELS.md"), "w").write("\n".join(out) + "\n")
print("wrote LABELS.md", dict(tot), dict(verdicts))
