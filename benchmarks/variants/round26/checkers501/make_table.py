"""Print the per-file label table for LABELS.md (counts by grep-equivalent regexes)."""
import os, re

ROOT = "/tmp/r26/ten501"
SHAPES = {
 "actor_critic_agent.py": "spread: Agent.track() keeps critic values across episodes; per-episode remember() buffer consumed by backward (ok)",
 "avg_meter_trainer.py": "spread: AverageMeter.update(loss, n) from train(); acc meter fed argmax accuracy, .item() meter (ok)",
 "basic_running_total.py": "inline: `running_loss += loss`, epoch history of the tensor total; .item() twins",
 "checkpoint_topk.py": "spread: ModelCheckpoint callback keeps top-k monitor values; val loss computed with grad enabled vs disabled",
 "class_attribute_history.py": "spread: trainer method appends to class attributes (RunStats.history, GlobalBest dict)",
 "closure_partial.py": "spread: nonlocal running mean closure, functools.partial loggers, list of partial callbacks",
 "csv_logger_rows.py": "spread: CSV logger buffering row dicts with tensors vs float()",
 "dataclass_state.py": "spread: dataclass state threaded through update(); list field and dataclasses.replace EMA",
 "deque_window.py": "inline: deque(maxlen=5) smoothing window; clip_grad_norm_ result (no graph, ok)",
 "distillation.py": "inline: frozen teacher logits bank (ok), student logits bank and KD total (expect)",
 "early_stopping.py": "spread: EarlyStopping.step(val_loss) keeps best/history; validate with/without no_grad",
 "ema_weights.py": "spread: EMA shadow dict without no_grad, in-place buffer EMA; ModelEma under @no_grad, detached in-place EMA",
 "epoch_loss_table.py": "inline: growing torch.cat of per-sample losses, epoch total in a dict, inner running sum",
 "eval_without_no_grad.py": "spread: eval helpers; torch.cat of outputs and loss sum without no_grad vs @no_grad / inference_mode",
 "finetune_trainer.py": "spread: HF-like Trainer, tr_loss += step loss (either), log_history rows via _maybe_log",
 "gan_toy.py": "inline: G/D loss lists, D(x) history, generated sample snapshots",
 "generator_losses.py": "spread: training generator yields losses; coroutine keeping running total in generator state",
 "grad_accum_buffer.py": "inline: micro-batch buffer reset and consumed each optimizer step (ok) vs global micro log",
 "hooks_activation_stats.py": "spread: forward hooks (closures) appending activation stats; feature hook storing detach()",
 "hparam_study.py": "spread: Study.tell(params, value) with objective returning a graph-carrying val loss",
 "image_pool_gan.py": "spread: CycleGAN ImagePool.query keeps generated images (raw vs detached)",
 "keras_callbacks.py": "spread: Keras-like CallbackList/History/ProgbarLogger with logs dict of tensors vs .item()",
 "lightning_like.py": "spread: Lightning-style self.log() into defaultdict(list), training_step_outputs",
 "lr_finder.py": "spread: LR range test class, exponentially smoothed loss carried across iterations",
 "memory_bank_knn.py": "spread: MemoryBank.write(idx, feats) in-place index store into a bank tensor",
 "metric_dict_defaultdict.py": "spread: step returns dict of loss terms; caller fills defaultdict(list)",
 "metric_objects.py": "spread: torchmetrics-like Metric.update storing preds / summing loss; argmax accuracy (ok)",
 "moco_queue.py": "spread: MoCo negative queue torch.cat; shared encoder keys (expect) vs momentum encoder w/o grad (ok)",
 "module_global_cache.py": "spread: module-level list/dict/global written from helpers; feature cache",
 "multitask_loss_terms.py": "inline: per-task term totals in dict, uncertainty weights exp(-log_vars) trace",
 "param_norm_tracker.py": "inline+helpers: tensors derived from parameters (weight norm, L2 penalty) kept vs no_grad/detach",
 "per_class_stats.py": "inline: per-class loss sums into an indexed tensor; comparison counts (ok)",
 "plateau_scheduler.py": "spread: hand-written scheduler keeps metric history vs torch ReduceLROnPlateau (converts to float)",
 "ppo_gae_rollout.py": "inline+helper: GAE; rollout value buffer (ok) vs value_log.extend across rollouts",
 "queue_producer.py": "inline: queue.Queue.put((step, loss)) vs SimpleQueue of floats",
 "reinforce_toy.py": "inline: per-episode saved_log_probs (ok), entropy log never cleared (expect), running reward float",
 "running_norm_layer.py": "spread: hand-written running-stat layers in forward(); python-attribute EMA of activation scale",
 "seq2seq_attention.py": "spread: decoder keeps attention maps on self across batches; per-batch step_logits (ok)",
 "setattr_dict_update.py": "inline: setattr accumulation, dict.update, list.extend, list.insert",
 "simclr_trainer_subclass.py": "spread: BaseTrainer hook overridden in subclasses; embeddings and temperature trace",
 "step_returns_tuple.py": "spread: step() returns (loss, logits); caller collects logits vs argmax/softmax().detach()",
 "swa_average.py": "inline: hand-rolled SWA running mean in-place (with/without no_grad), swa_utils.AveragedModel (ok)",
 "tbptt_lstm.py": "spread: hidden state carried across chunks in a leaky evaluate(); repackage_hidden / no_grad (ok)",
 "train_step_returns.py": "spread: train_step() returns loss, caller sums; train_step_scalar() returns .item()",
 "vae_kl_tracking.py": "inline: KL list, reconstruction running sums, mu snapshots",
 "wandb_like_logger.py": "spread: wandb-like run.log(dict) keeping history/summary; grad-norm from .grad (ok)",
 "wgan_gp_critic.py": "inline+helper: gradient penalty (create_graph) history and Wasserstein estimate",
 "worst_batches_heap.py": "inline: heapq of hardest batches holding per-sample loss tensors vs ids / detached",
 "trainkit": "package (models, callbacks, engine, main): engine hands loss/output to callbacks and keeps batch_losses",
 "rlpkg": "package (env, replay, agent, main): DQN replay buffer keeps Q estimates, TD error log, first-step Q per episode",
 "evalpkg": "package (data, metrics, engine, main): MetricTracker.update(key, value, n), eval without no_grad, last loss per epoch",
}
rows = []
tot = [0, 0, 0]
entries = sorted(f for f in os.listdir(ROOT) if f.endswith(".py")) + sorted(d for d in os.listdir(ROOT) if os.path.isdir(os.path.join(ROOT, d)) and not d.startswith("_"))
for e in entries:
    p = os.path.join(ROOT, e)
    files = [p] if e.endswith(".py") else sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".py"))
    c = [0, 0, 0]
    for f in files:
        for line in open(f):
            line = line.rstrip("\n")
            if re.search(r"# expect: TEN501$", line): c[0] += 1
            elif re.search(r"# ok$", line): c[1] += 1
            elif re.search(r"# either: TEN501$", line): c[2] += 1
    tot = [a + b for a, b in zip(tot, c)]
    rows.append(f"| {e}{'/' if not e.endswith('.py') else ''} | {c[0]} | {c[1]} | {c[2]} | {SHAPES.get(e, '?')} |")
print("| file | expect | ok | either | shape |")
print("|---|---|---|---|---|")
print("\n".join(rows))
print(f"| **total** ({len(entries)} entries) | **{tot[0]}** | **{tot[1]}** | **{tot[2]}** | |")
