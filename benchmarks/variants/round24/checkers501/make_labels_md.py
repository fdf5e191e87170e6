import os, re, collections
D = "/tmp/r24/ten501"
SHAPES = {
 "p01_mlp_average_meter.py": "ImageNet-style AverageMeter.update(loss, n) (self.sum += val*n); ok: acc .item(), argmax count tensor, meter fed inside no_grad validate()",
 "p02_epoch_running_totals.py": "inline `epoch_loss += loss`, `total_reg += reg` (param-derived L2); ok: .item(), `+ loss.detach()`, sign-match count",
 "p03_history_dict.py": "defaultdict history .append(loss), dict keyed by step; ok: lr float, clip_grad_norm_ return, float(loss)",
 "p04_dcgan_losses.py": "DCGAN G_losses.append(errG), preview list of fake[:2]; ok: errD.item(), D_x float, samples made under no_grad",
 "p05_vae_loss_terms.py": "dict of loss terms summed per term into a persistent dict; growing torch.cat of KL; ok: per-step term sum (reset, backprop), .item(), .detach() in cat",
 "p06_distillation_bank.py": "KD: student logits bank, `soft_total += soft`; ok: frozen teacher (requires_grad=False) logits bank/softmax cache, loss.detach()",
 "p07_simclr_negatives_queue.py": "negatives queue object .push(k) (torch.cat+slice in a method); ok: push(k.detach())",
 "p08_reinforce.py": "REINFORCE: entropies list across steps, returned policy_loss kept per episode; ok: per-episode saved_log_probs (cleared after backward), rewards, .item()",
 "p09_a2c_rollout.py": "A2C log object .log_update(value_loss, advantages); ok: rollout storage reset every update, .item()/.detach()",
 "p10_seq2seq_attention.py": "decoder forward appends attn to self.attn_maps; `print_loss_total += loss / T` on a returned loss; ok: per-batch teacher-forcing sum/outputs, detach().cpu(), .item()",
 "p11_early_stopping.py": "EarlyStopping(val_loss) from a validate() without no_grad; `best = min(best, val_loss)`; ok: .item() versions",
 "p12_lightning_like_module.py": "LightningModule-like self.log(name, loss) storing in a dict of lists; epoch outputs list of {'loss': loss}; ok: acc/lr logs, loss.detach()",
 "p13_hf_trainer_like.py": "HF-Trainer-like: `tr_loss += self.training_step(...)` whose override returns the non-detached loss; ok: base training_step returns loss.detach(), logs dict, no_grad logits",
 "p14_callbacks_list.py": "callbacks list `for cb in callbacks: cb.on_batch_end(batch, logs)` with tensor logs; ok: logs of .item() floats, on_epoch_end",
 "p15_ema_weights.py": "EMA of weights: method doing e.mul_(d).add_(p) without no_grad; inline shadow dict EMA; ok: @torch.no_grad ModelEmaV2, p.detach()",
 "p16_running_stats_forward.py": "running mean updated in forward from activations; ok: no_grad in-place buffer update, var.detach(), num_batches_tracked += 1",
 "p17_eval_without_no_grad.py": "evaluate() with only model.eval(): preds list, loss total, val history across epochs; ok: @torch.no_grad and inference_mode evaluators",
 "p18_center_loss.py": "center-loss CenterTracker.update without detach (index-assign into tensor attr); embeddings bank; ok: detaching tracker, detach().cpu(), labels",
 "p19_moco_queue.py": "query features enqueued into a module attribute via torch.cat; ok: momentum encoder param .data update and key queue under @torch.no_grad",
 "p20_partial_and_closures.py": "functools.partial(append_metric, history, 'loss')(loss); closure `add(loss)` with nonlocal total; ok: .item()/.detach() through the same helpers",
 "p21_global_totals.py": "`global TOTAL_LOSS; TOTAL_LOSS += loss` inside train_step(); ok: .item(), step counter, min of floats, argmax indices list",
 "p22_coroutine_meter.py": "generator coroutine meters: avg.send(loss), windowed send(pred.mean()); ok: send(loss.item())",
 "p23_setattr_extend.py": "setattr(stats, name, getattr(stats, name) + value); list.extend(losses.values()); ok: float(value), generator of .item()",
 "p24_kaggle_oof_folds.py": "K-fold OOF: oof[va_idx] = p_val (index_put on a preallocated tensor), `test_preds += sigmoid(model(X_test))/FOLDS`; ok: .detach(), no_grad, thresholded score",
 "p25_plateau_scheduler.py": "custom scheduler .step(val_loss) appending to history; `best = torch.minimum(best, val_loss)`; ok: ReduceLROnPlateau.step(val_loss), lr list, detached minimum",
 "p26_grad_norm_logging.py": "param norm sum, update ratio with p.norm(), weight.clone() snapshots; ok: clip_grad_norm_ return, p.detach().norm(), .data, detach().clone()",
 "p27_summary_writer_like.py": "in-memory SummaryWriter.add_scalar(loss) / add_histogram(logits); ok: .item(), weight.data, lr dict",
 "p28_trainer_hierarchy.py": "BaseTrainer._log(key, loss) via subclass; ok: argmax accuracy, and a mixin override of _log that detaches (same call text, ok)",
 "p29_dqn_replay.py": "q.max(1).values logged; replay.update_priorities(idx, td) storing td tensors; ok: .indices, replay.push of env tensors, detached td, no_grad soft target update",
 "p30_ppo_minibatch_stats.py": "PPO approx_kl list, stats['value_loss'].append(v_loss), `entropy_sum += entropy.mean()`; ok: clipfrac .item(), policy_loss .item()",
 "p31_grad_accumulation.py": "grad accumulation: deque(maxlen=4).append(loss); either: accum_loss += loss reset every accum_steps; ok: .detach(), .item()",
 "p32_forward_hooks.py": "forward hooks appending out / out.norm().mean() to module-level stores; ok: out.detach(), out.mean().item()",
 "p33_lr_finder.py": "LR finder smoothed loss `avg_loss = beta*avg_loss + (1-beta)*loss` and losses.append(smoothed_loss); ok: loss.item(), log10(lr)",
 "p34_wgan_gp.py": "WGAN-GP critic_losses (per-critic-step list), wasserstein estimate, torch.stack(list).mean() kept per G step; ok: gp.item(), d_loss.detach(), g_loss.item()",
 "p35_nanogpt_estimate_loss.py": "estimate_loss without @torch.no_grad: losses[k] = loss into preallocated tensor, its result appended across iterations; ok: decorated version",
 "p36_set_grad_enabled_phases.py": "torchvision tutorial train/val phases: epoch_outputs[phase].append(outputs) (graph in train phase); ok: loss.item()*n, preds==labels count, set_grad_enabled(False) outputs",
 "p37_tta_ensemble.py": "TTA ensemble predict() with model.eval() only: all_probs.append(probs); ok: per-batch ensemble sum (reset per batch), probs.detach()",
 "p38_diffusion_loss_ema.py": "DDPM loss_ema chain, t_losses.index_add_(0, t, per_sample); ok: .item() EMA, detached index_add_, counts, no_grad sampling frames",
 "p39_conversion_traps.py": "conversions that keep the graph: bound method loss.detach (no call), .cpu(), .clone(), .to(float64); ok: detach(), detach().cpu(), torch.tensor(item), tolist(), .data; either: dict slot overwritten each step",
 "p40_tracker_dict.py": "dict of MetricTracker objects: trackers['loss'].update(loss), confidence() helper returning a graph; ok: top1 float helper, .item(), bincount of correct",
 "trainlib": "package: engine.train_one_epoch -> meters dict (meters.py) and module-global history.record() (history.py); main: EpochTracker.add_epoch(meter avg), evaluate() without no_grad appended per epoch; ok: acc, grad norm, .item(), evaluate_safe (no_grad wrapper)",
 "rlkit": "package: agent.update() -> stats.record()/stats.running_mean() module globals (stats.py); main keeps returned loss; ok: policy_loss.item(), value.mean().detach(), replay buffer of env tensors, returns floats",
 "gankit": "package: trainer -> CallbackList.on_step_end(self, {d_loss, g_loss}) fanning out to LossHistory/RunningAverages (callbacks.py); torch.cat into self.state of D(G(z)) scores and of D(fake.detach()) scores (D's own graph); ok: .item() logs, detached score, SampleSaver under no_grad",
}
LAB = {"# expect: TEN501": "expect", "# ok": "ok", "# either: TEN501": "either"}
rows = []
tot = collections.Counter()
for name in sorted(os.listdir(D)):
    full = os.path.join(D, name)
    files = []
    if name.endswith(".py") and name.startswith("p"):
        files = [full]
    elif os.path.isdir(full) and os.path.exists(os.path.join(full, "main.py")):
        files = sorted(os.path.join(full, f) for f in os.listdir(full) if f.endswith(".py"))
    else:
        continue
    c = collections.Counter()
    for f in files:
        for line in open(f):
            s = line.rstrip("\n")
            for k, v in LAB.items():
                if s.endswith(k):
                    c[v] += 1
    tot.update(c)
    how = "python %s" % name if name.endswith(".py") else "python -m %s.main" % name
    rows.append("| %s | %d | %d | %d | %s | `%s` |" % (name + ("/" if not name.endswith(".py") else ""), c["expect"], c["ok"], c["either"], SHAPES[name], how))
print("| file | expect | ok | either | shape | run |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
print("| **total** | **%d** | **%d** | **%d** | %d programs + 3 packages | |" % (tot["expect"], tot["ok"], tot["either"], sum(1 for r in rows if ".py |" in r)))
