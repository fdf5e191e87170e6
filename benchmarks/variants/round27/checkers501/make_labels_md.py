import os, re, subprocess
ROOT = "/tmp/r27/ten501"
SHAPE = {
 "p01_mlp_running_loss.py": "inline: `running += loss`, list concatenation; ok `.item()`/`.detach()`",
 "p02_avgmeter_classifier.py": "AverageMeter.update(val, n) in train(); acc under no_grad ok; softmax confidence kept",
 "p03_keras_callbacks.py": "Keras-like CallbackList/History receiving a logs dict of tensors vs floats",
 "p04_lightning_style.py": "Lightning-like self.log() into defaultdict(list); outputs list for epoch_end",
 "p05_early_stopping.py": "EarlyStopping __call__ keeps val loss (validation without no_grad); ReduceLROnPlateau converts itself (ok)",
 "p06_metric_history_dicts.py": "defaultdict(list) histories, dict.update running sums, setdefault().append",
 "p07_smoothed_window.py": "deque(maxlen) smoothing window, appendleft of predictions",
 "p08_hard_example_heap.py": "heapq of hardest examples via helper function vs detaching miner class",
 "p09_per_class_stats.py": "per-class dict accumulation in an inner loop; comparison counts ok",
 "p10_reinforce_agent.py": "REINFORCE agent: per-episode log-prob buffer consumed by backward (ok, boundary=episode), entropy log, returned loss summed by caller",
 "p11_a2c_rollout.py": "A2C: StatsTracker.add() receives advantage / value loss",
 "p12_dcgan_loop.py": "DCGAN tutorial: G_losses/D(x) lists, img_list of fakes",
 "p13_kd_distiller.py": "Distiller class: frozen-teacher cache ok, student logits / KD term / KD EMA kept",
 "p14_moco_queue.py": "MoCo: momentum update under no_grad ok, key queue ok, growing torch.cat of queries",
 "p15_char_rnn_tbptt.py": "TBPTT state detached (ok); sampling loop carrying LSTM state without no_grad",
 "p16_ema_helper.py": "EMA helper class: update() without no_grad vs @torch.no_grad ModelEmaV2",
 "p17_swa_inline.py": "inline SWA running average of params vs no_grad vs AveragedModel",
 "p18_handwritten_norm.py": "hand-written running-stat norm layer in forward() (buffer reassigned)",
 "p19_eval_collect_logits.py": "evaluate() collecting logits without no_grad; growing torch.cat of probs",
 "p20_generator_losses.py": "generator state accumulating loss; caller summing yielded losses",
 "p21_closures_partial.py": "closure recorder and functools.partial receivers",
 "p22_setattr_extend_insert.py": "setattr on namespace, list.extend, insert, dict.update",
 "p23_step_returns.py": "train_step() returns (loss, aux dict); caller accumulates per epoch",
 "p24_row_loggers.py": "TextLogger formats (ok) vs TableLogger keeps row dicts",
 "p25_class_attr_registry.py": "class-attribute registries via classmethod; class attribute running total",
 "p26_module_global_cache.py": "module-level cache filled in helper; module global list via helper",
 "p27_logging_queue.py": "queue.Queue / PriorityQueue of metrics and logits",
 "p28_custom_scheduler.py": "custom plateau scheduler fed the loss vs ReduceLROnPlateau (converts)",
 "p29_vae_terms.py": "VAE recon/KL running sums, beta*KL and mu histories",
 "p30_grad_accum_trainer.py": "gradient accumulation buffer consumed by backward (ok, boundary=update) vs Trainer.train_losses",
 "p31_simclr_feature_bank.py": "feature bank push() in training_step vs @no_grad monitor; similarity stats",
 "p32_activation_hooks.py": "forward hooks storing activations raw vs detached; grad norms ok",
 "p33_seq2seq_teacher_forcing.py": "per-token loss summed within a batch (ok, boundary=batch); epoch loss across batches",
 "p34_param_monitoring.py": "weight norms / param snapshots / per-param dict derived from parameters with grad on",
 "p35_wgan_gp.py": "WGAN-GP trainer class: gradient penalty history, getattr-accumulated W distance",
 "p36_multitask_loss_dict.py": "dict of losses from compute_losses() into Counter and setdefault lists",
 "p37_uncertainty_weighting.py": "learned precision weights / sigma derived from parameters stored",
 "p38_der_replay.py": "dark experience replay reservoir buffer keeping logits",
 "p39_dqn_per.py": "DQN: Q-value log in act(), PER priorities from TD errors; target net under no_grad ok",
 "p40_hparam_trial_report.py": "Optuna-like trial.report(); min() best value (either)",
 "p41_lr_finder.py": "LR finder exponentially smoothed loss (tensor EMA vs float EMA)",
 "p42_tracker_subclasses.py": "tracker base class, subclasses overriding _store (raw / item / detach); last-value callback (either)",
 "p43_image_pool.py": "CycleGAN ImagePool storing image vs image.data",
 "cls_kit": "package: Trainer + SumMeter/ScalarSumMeter + callbacks + per-epoch logits list",
 "ppo_lite": "package: PPO agent value trace / KL history, EpochLogger.store, entropy buffer consumed by backward (ok, boundary=rollout)",
 "gan_kit": "package: LossHistory.record vs SafeLossHistory, tensor EMA of D loss, detached sample bank",
}
def count(path, pat):
    out = subprocess.run(["grep", "-rc", "--include=*.py", pat, path], capture_output=True, text=True).stdout
    return sum(int(l.rsplit(":", 1)[1]) if ":" in l else int(l) for l in out.split())
rows = []
T = [0, 0, 0]
for name in sorted(os.listdir(ROOT)):
    p = os.path.join(ROOT, name)
    if name not in SHAPE:
        continue
    c = [count(p, "# expect: TEN501$"), count(p, "# ok$"), count(p, "# either: TEN501$")]
    T = [a + b for a, b in zip(T, c)]
    rows.append(f"| {name}{'/' if os.path.isdir(p) else ''} | {c[0]} | {c[1]} | {c[2]} | {SHAPE[name]} |")
print("\n".join(rows))
print(f"| **total** | **{T[0]}** | **{T[1]}** | **{T[2]}** | |")
