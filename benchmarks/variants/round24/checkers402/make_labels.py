"""Writes /tmp/r24/ten402_403/LABELS.md; every count is taken from the files (grep)."""
import os
import re
import subprocess

ROOT = "/tmp/r24/ten402_403"
SHAPE = {
    "t402_best_ckpt_trainer.py": "Trainer.fit keeps `self.best_state = model.state_dict()`, restores at end; deepcopy of optimizer state is the fixed form",
    "t402_early_stopping_callback.py": "Keras-style EarlyStopping callback, `{k: v for k, v in sd.items()}` best weights; cloned last-weights used by a second callback",
    "t402_ema_swap.py": "EMA apply_shadow/restore with `backup = [p.data ...]` then `p.data.copy_(shadow)`; subclass with detach().clone()",
    "t402_swa_average.py": "SWA running average seeded with `dict(model.state_dict())` (in-place averaging also corrupts the model) vs clone",
    "t402_fedavg.py": "FedAvg with one reused client model: `updates.append(client.state_dict())`; server sd alias that is never mutated while used (ok)",
    "t402_weight_drift_monitor.py": "drift monitor with `{n: p.detach()}` reference (drift always 0) vs detach().clone(); detached output (ok)",
    "t402_lottery_rewind.py": "lottery-ticket rewinding through helper returning `copy.copy(state_dict)` vs cloned dict; helper passed as a function",
    "t402_l2sp_anchor.py": "L2-SP regulariser module with `anchor = [p.data ...]` (penalty always 0); subclass clones",
    "t402_distill_teacher.py": "self-distillation: teacher = `{n: p for n, p in named_parameters()}` used via functional_call vs deepcopy(student)",
    "t402_registry_checkpoints.py": "CheckpointRegistry.register(name, model.state_dict()) for checkpoint averaging; torch.save to BytesIO and deepcopy fixed forms",
    "t402_heap_topk.py": "top-k checkpoints in a heap: heappush/heapreplace of (score, epoch, state_dict) vs serialized bytes",
    "t402_setattr_snapshot.py": "per-submodule snapshots via `setattr(self, f'{tag}_{name}', module.state_dict())` / getattr restore",
    "t402_module_level_store.py": "module-level `_STORE[name] = model.state_dict()` stash/revert helpers; call site is `either`",
    "t402_optimizer_state.py": "loss-spike rollback saving `opt.state_dict()` (Adam exp_avg/step alias) next to a deepcopied model state",
    "t402_bn_recalibration.py": "BN recalibration: live buffer dict / `running_var` reference vs clone and `.item()` (reset_running_stats zeroes in place)",
    "t402_cpu_offload_snapshot.py": "'offload' with `.cpu()`, `.numpy()`, `.float()` (all no-copy on CPU float32) vs `.to(copy=True)`, `.numpy().copy()`, `.to(float64)`",
    "t402_wrapper_method.py": "Lightning-like wrapper `get_weights()` returning `self.model.state_dict()`; subclass override clones; hill-climb caller",
    "t402_epoch_dict.py": "history dict keyed by epoch of `p.detach()` vs `.item()` norms and `torch.cat` (copies)",
    "t402_class_attribute_store.py": "class attribute `Snapshots.initial = list(model.parameters())` vs cloned lists",
    "t402_closure_snapshot.py": "closure factory capturing `saved = model.state_dict()` for LR probing vs deepcopy",
    "t402_param_data_copy_restore.py": "SAM-style perturb/restore: `orig = [p.data]` + `p.data.copy_` (bug) vs clone, vs `p.data = ...` re-binding (ok)",
    "t402_dqn_target_net.py": "DQN target params `self.target_params = self.q.state_dict()` used through functional_call vs target.load_state_dict",
    "t402_ppo_old_policy.py": "PPO old policy frozen as `{n: p.detach()}` (ratio stays 1) vs precomputed detached old log-probs",
    "t402_recent_deque.py": "NaN/divergence rollback deque `recent.append(model.state_dict())` vs torch.save bytes",
    "t402_snapshot_ensemble.py": "snapshot ensemble appending `[p for p in model.parameters()]` vs deepcopy(model)",
    "t402_keep_vars_and_rebind.py": "`state_dict(keep_vars=True)`, `dict(named_parameters())` before nn.init (bugs) vs Parameter re-binding and `.double()` (ok)",
    "t402_model_soup.py": "model soup over fine-tunes of one model object: `ingredients.append(dict(model.named_parameters()))` vs clones",
    "t402_grad_noise_probe.py": "loss-landscape interpolation with end point `{n: p.detach()}` while interpolate() writes the params in place",
    "pkg402": "package: snapshots.py helpers (`return model.state_dict()`, `[p.detach() ...]`, deepcopy, torch.save) used from callbacks.py; `python -m pkg402.main`",
    "t403_delay_line.py": "FIR delay line `buf[1:] = buf[:-1]` (1-D, raises) vs torch.roll and clone subclasses",
    "t403_frame_stack.py": "RL frame stack shifting by c channels, oldest-first (left shift, CPU-benign) and newest-first (right shift, smears) vs torch.cat",
    "t403_kv_cache.py": "sliding-window KV cache: left shift by assignment, right shift by `copy_`; clone/roll fixed forms and new-token writes",
    "t403_rolling_window.py": "rolling feature window `win[..., k:].copy_(win[..., :-k])` vs `copy_(torch.roll(...))`",
    "t403_named_view.py": "source view bound to a name first (`prev = x[:, :-1]`; `x[:, 1:] = prev`), and through a second `.view()` of the same tensor",
    "t403_tuple_targets.py": "tuple targets `h[1:], c[1:] = h[:-1], c[:-1]` vs clones / writing into new tensors",
    "t403_stepped_slices.py": "stepped slices: `x[2::2] = x[:-2:2]`, shift of `z[::3]` (bugs) vs disjoint even/odd interleaving (ok)",
    "t403_overlap_regions.py": "block copies inside one buffer: overlapping (right and left) vs disjoint halves/tiles",
    "t403_contiguous_trap.py": "sources that look like copies: `.contiguous()` (1-D: view), `.detach()`, same-shape `.reshape()`, `.to(same dtype)`, `.data` vs real copies",
    "t403_narrow_copy.py": "streaming conv state shifted with `narrow(...).copy_(narrow(...))` vs clone",
    "t403_audio_filters.py": "audio: in-place integer delay (bug) vs pre-emphasis / comb (RHS is a new tensor) and echo into a separate buffer",
    "t403_replay_buffer.py": "FIFO replay buffer shifting `obs[:-1] = obs[1:]` when full (raises) vs ring buffer",
    "t403_time_series_lag.py": "lag features: `feats[:, 1:, :] = feats[:, :-1, :]` vs lag into disjoint channels / new tensor",
    "t403_image_translate.py": "translation augmentation in place, down (smears) and up (left shift) vs clone and separate output",
    "t403_token_shift.py": "RWKV token shift in place `x[:, 1:] = x[:, :-1]` vs F.pad and a separate buffer",
    "t403_transposed_view.py": "shift through `x.t()` and `x.permute(...)` views vs writing from another tensor",
    "t403_gae_values.py": "GAE next-values: `next_values = values` alias then `next_values[:-1] = values[1:]` vs clone; discounted returns (new RHS)",
    "t403_sorted_insert.py": "sorted top-k insertion `vals[i + 1:] = vals[i:-1]` for vector and payload rows vs clone",
    "t403_buffer_module.py": "nn.Module history buffers: `self.hist.data[1:] = self.hist.data[:-1]`, `hist2[:, 1:] = hist2[:, :-1]` vs clone",
    "pkg403": "package: ops.py in-place shift helpers on an argument (`shift_right_`, `shift_left_` via copy_) used by buffers.py vs out-of-place / clone / cat; `python -m pkg403.main`",
}


def grep_count(pattern, paths):
    out = subprocess.run(["grep", "-c", "-E", pattern] + paths, capture_output=True, text=True, cwd=ROOT).stdout
    return sum(int(l.rsplit(":", 1)[-1]) for l in out.splitlines()) if len(paths) > 1 else int(out.strip() or 0)


def counts(paths):
    return (grep_count(r"# expect: TEN40[23]$", paths), grep_count(r"# ok$", paths),
            grep_count(r"# either: TEN40[23]$", paths))


def main():
    units = sorted(f for f in os.listdir(ROOT) if re.match(r"t40[23]_.*\.py$", f)) + ["pkg402", "pkg403"]
    rows, tot = [], {"TEN402": [0, 0, 0], "TEN403": [0, 0, 0]}
    for u in units:
        paths = [u] if u.endswith(".py") else sorted(os.path.join(u, f) for f in os.listdir(os.path.join(ROOT, u)) if f.endswith(".py"))
        e, o, ei = counts(paths)
        rule = "TEN402" if "402" in u else "TEN403"
        for i, v in enumerate((e, o, ei)):
            tot[rule][i] += v
        rows.append(f"| `{u}` | {rule} | {e} | {o} | {ei} | {SHAPE[u]} |")
    g = lambda p: subprocess.run(f"grep -rhE --include=*.py '{p}' . | wc -l", shell=True, cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip()
    either = subprocess.run("grep -rnE --include=*.py '# either: TEN40[23]$' . | sort", shell=True, cwd=ROOT,
                            capture_output=True, text=True).stdout.strip().splitlines()
    md = f"""# TEN402 / TEN403 held-out test set

Programs written from scratch for this set. Every program is CPU-only, calls `torch.manual_seed(0)`,
prints the final numbers it computes, and exits 0 (an overlap `RuntimeError`, where PyTorch raises one,
is caught and printed).

## Conventions

* Exactly one marker per line, at the end of the physical line where the statement starts.
  Each program (or package) carries markers for one rule only.
* `# expect: TEN402` is placed where the aliasing snapshot is created or stored into its keeper
  (`self.best_state = model.state_dict()`, `x.append(...)`, `heapq.heappush(...)`, `setattr(...)`,
  `REGISTRY.register(...)`, `_STORE[name] = ...`, or the `return ...` inside a snapshot helper/wrapper).
  Call sites of such helpers carry `# either: TEN402`.
* `# expect: TEN403` is on the in-place slice write / `.copy_()` whose source overlaps the destination
  (inside the helper when a helper does it). Left shifts (`x[:, :-1] = x[:, 1:]`) are `expect` too:
  undefined behaviour (may differ on CUDA) even where CPU happens to compute them right.
* `# ok` marks a look-alike that is not a bug (clone/deepcopy/torch.save/`.item()`/`.double()`/new tensor on
  the right-hand side/`torch.roll`/`torch.cat`/disjoint regions/a snapshot that is never mutated in place
  while still in use, e.g. Parameter re-binding).
* `# either: CODE` is a judgement call, left out of scores (listed below).

## Totals (counted with grep over all `*.py` files)

| label | count | command |
|---|---|---|
| `# expect: TEN402` | {g('# expect: TEN402$')} | `grep -rhE --include=*.py '# expect: TEN402$' . \\| wc -l` |
| `# expect: TEN403` | {g('# expect: TEN403$')} | `grep -rhE --include=*.py '# expect: TEN403$' . \\| wc -l` |
| `# ok` | {g('# ok$')} (TEN402 programs: {tot['TEN402'][1]}, TEN403 programs: {tot['TEN403'][1]}) | `grep -rhE --include=*.py '# ok$' . \\| wc -l` |
| `# either: TEN402` | {g('# either: TEN402$')} | `grep -rhE --include=*.py '# either: TEN402$' . \\| wc -l` |
| `# either: TEN403` | {g('# either: TEN403$')} | |

Programs: {sum(1 for u in units if u.endswith('.py'))} single-file programs
({sum(1 for u in units if u.startswith('t402'))} `t402_*.py`, {sum(1 for u in units if u.startswith('t403'))} `t403_*.py`) and 2 packages (`pkg402`, `pkg403`).

## Per-file table

| file | rule | expect | ok | either | shape |
|---|---|---|---|---|---|
""" + "\n".join(rows) + f"""

## `either` sites and why

All nine are TEN402; none for TEN403.

""" + "\n".join(f"* `{l.split(':')[0][2:]}:{l.split(':')[1]}`: " + {
        "pkg402/callbacks.py:23": "call site of `snapshots.capture()` (the aliasing `return` in the helper is the `expect`).",
        "pkg402/callbacks.py:52": "call site that picks `capture_params` or `capture_params_safe` at run time; aliasing only in one branch, and the `return` in the helper is the `expect`.",
        "t402_bn_recalibration.py:9": "`bn_buffers()` is a generic accessor returning live buffers. It is also used for the intentionally live `after` view, so the snapshot is really the keeper `stats_before = bn_buffers(model)` (the `expect`). A checker could reasonably report either line.",
        "t402_class_attribute_store.py:28": "call site of `record_initial()`; the store into the class attribute inside the helper is the `expect`.",
        "t402_cpu_offload_snapshot.py:30": "call site of `offload()`; the `return {k: v.cpu() ...}` in the helper is the `expect`.",
        "t402_lottery_rewind.py:38": "call site of a helper passed in as a parameter (`rewind_shallow` aliases, `rewind_cloned` does not); the helpers' `return` lines carry the labels.",
        "t402_module_level_store.py:31": "call site of `stash()`; the `_STORE[name] = model.state_dict()` inside it is the `expect`.",
        "t402_wrapper_method.py:39": "conditional call site: `get_weights_copy()` (safe) or `get_weights()` (aliasing wrapper method, the `expect` is its `return`).",
        "t402_wrapper_method.py:49": "call site of `get_weights()`; aliases for `LitModule`, but `LitModuleV2` overrides it with a cloning version, so it depends on the dynamic type.",
    }[f"{l.split(':')[0][2:]}:{l.split(':')[1]}"] for l in either) + """

## Labels worth a second look (all confirmed at run time)

* `t403_contiguous_trap.py` `via_reshape`: `m[:, 1:] = m[:, :-1].reshape(m.shape[0], -1)` is **expect**.
  A reshape to the same shape returns a view, so the source still overlaps. (I first labelled it `ok`; the
  run-time check caught that. The mutation test re-plants this mistake.) In contrast `via_contiguous_2d`
  (`.contiguous()` of a strided slice) and `via_flatten_roundtrip` really copy, so they are `ok`, while
  `.contiguous()` of a 1-D slice (already contiguous) is `expect`.
* `t402_keep_vars_and_rebind.py`: `before = model2.state_dict()` followed by `model2.weight = nn.Parameter(...)`,
  and `ref32 = model3.state_dict()` followed by `model3.double()`, are `ok`. The old tensors are not
  written in place (re-binding / `param.data = new`), so the snapshot keeps its values.
* `t402_param_data_copy_restore.py` `rebind` mode: `orig = [p.data ...]` followed by `p.data = p.data + ...`
  is `ok`; the same line followed by `p.data.copy_(...)` (mode `alias`) is `expect`.
* `t402_fedavg.py`: `global_sd = server.state_dict()` is `ok`. The server is not modified while
  `global_sd` is in use (it is loaded into the client, and the server is only overwritten afterwards).
* `t403_stepped_slices.py`: `x[1::2] = x[0::2]` and `y[:, ::2] = y[:, 1::2]` are `ok` (the element sets
  are interleaved but disjoint). `x[2::2] = x[:-2:2]` and a shift of `z[::3]` are `expect`.
* `t403_audio_filters.py` pre-emphasis / comb (`y[..., 1:] = y[..., 1:] - c * y[..., :-1]`,
  `y[..., d:] += g * y[..., :-d]`) are `ok`. The right-hand side is a new tensor.
* Left shifts that CPU computes correctly (the result is unchanged by the fix; a memory probe confirms the
  partial overlap): `t403_frame_stack.py:16`, `t403_kv_cache.py:13`, `t403_overlap_regions.py:23`,
  `t403_image_translate.py:20`, `pkg403/ops.py:13`. Other left shifts (`t403_replay_buffer.py`,
  `t403_gae_values.py`) are 1-D/row-contiguous, so PyTorch raises the overlap error.

## How to run

```bash
cd /tmp/r24/ten402_403
export OMP_NUM_THREADS=1
for f in t40*.py; do python "$f"; done
python -m pkg402.main
python -m pkg403.main

# run-time check of every label (writes results.txt), and the checker's mutation test
python /tmp/r24/checkers402/check.py            # -> /tmp/r24/checkers402/results.txt
python /tmp/r24/checkers402/mutate.py           # -> /tmp/r24/checkers402/mutation_results.txt
```

`check.py` reruns the program (or `python -m pkgNNN.main`) once per `expect`/`ok`/`either` site, each time
with only that site fixed. The snapshot value, or the slice-write/`copy_` source, is wrapped in
`_snap(...)`, a storage-independent deep clone, and the stdout is compared with the baseline:

* `expect` must change the output.
* `ok` must leave it unchanged.

Every site is also instrumented: a `_reached()` / `_probe(dst, src)` line is inserted before it.

* Every `ok` site must be seen to execute.
* TEN403 `ok` sites must show no partial memory overlap.
* A TEN403 `expect` site whose CPU output does not change (a left shift) must show a partial overlap.

Reruns go through a fork server that has already imported torch, so the whole run takes minutes.
Baselines are also run as real `python` processes, and they must match the fork-server runs and exit 0.
"""
    open(os.path.join(ROOT, "LABELS.md"), "w").write(md)
    print(md[:1500])


if __name__ == "__main__":
    main()
