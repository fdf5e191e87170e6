"""Prints the per-file markdown table for LABELS.md (counts come from the markers)."""
import os, re, glob
ROOT = "/tmp/r26/ten402_403"
SHAPE = {
 "best_ckpt_callbacks.py": "ModelCheckpoint callback keeps `{k: v for k, v in sd.items()}`, restored on_train_end; ok: clone()d start weights in another callback",
 "class_attr_cache.py": "best weights kept in a class attribute `BestWeights.state = net.state_dict()`; ok: clone()d first weights",
 "dataclass_checkpoint.py": "`Checkpoint(epoch, loss, dict(sd))` dataclass as best; ok: detach().clone() for last",
 "dqn_target_params.py": "DQN target params `{k: v.detach()}` used via functional_call; ok: cloned re-sync",
 "early_stopping_restore.py": "EarlyStopping class stores `model.state_dict()`; ok: deepcopy of optimizer state",
 "ema_by_hand.py": "hand-written EMA shadow `{n: p.detach()}` (updated in place -> corrupts live weights); ok: cloned slow EMA",
 "ema_swap_eval.py": "ModelEMA.apply_shadow backs up `p.data`, restore() is a no-op; ok: cloned shadow",
 "fedavg_clients.py": "FedAvg: one worker model, `local_states.append(worker.state_dict())`; ok: deepcopy of global state",
 "gan_generator_snapshot.py": "`{k: v.cpu()}` of CPU tensors for G history; ok: `.cpu().clone()` for D",
 "kfold_reset.py": "k-fold reset with `init = model.state_dict()` + load_state_dict; ok: torch.save to BytesIO at once",
 "l2sp_finetune.py": "L2-SP anchor `{n: p.to(p.dtype)}` inside an nn.Module; ok: cloned start",
 "last_k_checkpoint_average.py": "`copy.copy(sd)` and `{k: v.numpy()}` for last-k averaging; ok: `.numpy().copy()`",
 "lookahead_wrapper.py": "Lookahead slow weights `[p.data ...]` in a wrapper; ok: subclass with detach().clone()",
 "lottery_rewind.py": "lottery-ticket rewind to `{n: p.detach()}` init after magnitude pruning; ok: cloned trained weights",
 "lr_range_test.py": "LR finder helper restores `model.state_dict()` taken at entry; ok: deepcopy of optimizer state",
 "magnitude_prune_report.py": "`[m.weight.contiguous()]` before global magnitude pruning; ok: cloned biases",
 "maml_meta_stepsize.py": "MAML meta-step size measured against `[p.detach()]`; ok: detach().clone()",
 "model_soup_finetune.py": "model soup ingredients `append(model.state_dict())` from one re-loaded model; ok: deepcopy pretrained",
 "namedtuple_trajectory.py": "namedtuple `Snap(step, [p.data ...])` trajectory; ok: `.double()` reference",
 "optimizer_state_reload.py": "`saved_opt = opt.state_dict()` (Adam moments/step) reloaded later; ok: deepcopy model state",
 "plateau_restart.py": "helper returns `state_dict(keep_vars=True)`; restart-from-best on plateau; ok: cloning helper",
 "polyak_soft_update.py": "DDPG-style soft updates; `critic_start = list(critic.parameters())`; ok: cloned actor start",
 "ppo_old_policy.py": "PPO old-policy helper returns `{k: v for k, v in sd.items()}` -> ratio always 1; ok: cloned value-head init",
 "reptile_meta.py": "Reptile meta step from `{n: p.data}`; ok: subclass with detach().clone()",
 "rollback_on_spike.py": "trainer rollback on loss spike to `dict(model.state_dict())`; ok: deepcopy optimizer",
 "sam_optimizer.py": "SAM optimizer subclass stores `self.state[p]['old_p'] = p.data`; ok: `.data.clone()` subclass",
 "self_distill_teacher.py": "self-distillation teacher `{k: v.float()}` of float32 weights; ok: `.double()` shadow",
 "snapshot_registry.py": "global registry `SNAPSHOTS[name] = net.state_dict()`; ok: serialized bytes via torch.save",
 "snapshot_wrapper_property.py": "wrapper class stores `module.state_dict()` in __init__, exposed by a property; ok: cloning subclass",
 "step_changes_weights_test.py": "sanity test `before = weight.data` then step; ok: clone, and `.data` read before the step",
 "swa_manual.py": "hand-written SWA collecting `[p.data ...]`; ok: detach().clone()",
 "topk_heap_average.py": "heapq of (loss, epoch, state_dict) for top-k averaging; ok: deepcopy heap",
 "update_ratio_monitor.py": "`setattr(self, name_prev, p.detach())` update/weight ratio monitor; ok: setattr with clone",
 "snapkit/": "package: snapshot helper returns `{k: v.detach()}` (callback/main call sites `either`), trainer rollback with `copy.copy(opt.state_dict())`; ok: cloning helper, torch.save buffer, `.double()` running mean, deepcopy, state_dict read before training",
 "causal_conv_stream.py": "streaming causal conv state `state[..., :-1] = state[..., 1:]` in a method; ok: F.pad offline path",
 "comb_filter_audio.py": "feedback comb `fb[:, d:].add_(fb[:, :-d])`; ok: `+=` with materialised RHS, block loop",
 "decoder_shift_right.py": "teacher-forcing shift right/left of label buffer in place; ok: HF-style new_zeros + clone",
 "eligibility_traces.py": "`traces[:, 1:].addcmul_(traces[:, :-1], ...)`; ok: TD(lambda) loop, materialised RHS look-alikes",
 "flat_ring_buffer.py": "shift through `.view(B, -1)` of a rollout buffer; ok: roll subclass",
 "frame_stack_env.py": "frame stack push (both directions) in class/subclass; ok: torch.cat subclass, disjoint writes",
 "image_translate_aug.py": "image translation along W and H of (B,C,H,W) in a helper; ok: torch.roll + edge fill",
 "kv_cache_window.py": "sliding-window KV cache along T (dim 2), one through a view bound to a name; ok: clone()d source",
 "lag_features.py": "lag features `lags[:, k, k:] = lags[:, k, :-k]` through select; ok: from the source series",
 "mel_context_window.py": "ASR left context scroll with `...` and time-major layout; ok: clone to a temp first",
 "nstep_discount.py": "`acc[:, 1:].add_(acc[:, :-1])` one-op discounted prefix; ok: n-step from another tensor, loop, materialised RHS",
 "obs_history_window.py": "newest-first obs history `h[:, 1:] = h[:, :-1]`; ok: torch.roll",
 "relpos_skew.py": "relative-position skew / unskew row by row in place; ok: pad+reshape skew",
 "select_row_shift.py": "shifts through `.select` views (incl. a dim-0 shift of a non-dense view) and a permuted view; ok: cloned/disjoint",
 "shift_helpers.py": "helper `shift_right_` via narrow().copy_(narrow()); ok: cloned shift_left_, torch.cat",
 "spectrogram_scroll.py": "spectrogram display scroll and narrow-based waterfall scroll; ok: torch.cat history",
 "stepped_slice_upsample.py": "stepped-slice spread/decimate in place; ok: even->odd (disjoint) copies",
 "token_shift_mix.py": "RWKV-style token shift on a clone buffer in a method; ok: ZeroPad2d / fresh tensor subclasses",
 "transposed_time_shift.py": "delay through a transpose(1, 2) view; ok: F.pad subclass",
 "tuple_target_rotate.py": "tuple-target rotate `a[:, 1:], a[:, :1] = a[:, :-1], a[:, -1:]`; ok: cloned RHS",
 "streamfeat/": "package: Ring.push scroll, shift_into helper used by a model, in-place pre-emphasis `sub_` and deltas `-=`; ok: roll/cat/materialised RHS",
}
pat = {"expect": r"# expect: TEN4\d\d$", "ok": r"# ok$", "either": r"# either: TEN4\d\d$"}
print("| file | rule | expect | ok | either | shape |")
print("|---|---|---|---|---|---|")
tot = {}
for rule in ("402", "403"):
    d = os.path.join(ROOT, "ten" + rule)
    entries = sorted(glob.glob(os.path.join(d, "*.py"))) + sorted(p for p in glob.glob(os.path.join(d, "*")) if os.path.isdir(p) and not p.endswith("__pycache__"))
    for e in entries:
        files = [e] if e.endswith(".py") else sorted(glob.glob(os.path.join(e, "*.py")))
        c = {k: 0 for k in pat}
        for f in files:
            for line in open(f):
                for k, p in pat.items():
                    if re.search(p, line.rstrip("\n")):
                        c[k] += 1
        name = os.path.basename(e) + ("" if e.endswith(".py") else "/")
        for k in c:
            tot[(rule, k)] = tot.get((rule, k), 0) + c[k]
        print("| ten%s/%s | TEN%s | %d | %d | %d | %s |" % (rule, name, rule, c["expect"], c["ok"], c["either"], SHAPE.get(name, "")))
print()
print("totals:", tot)
