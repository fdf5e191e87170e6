"""A synthetic but realistic PyTorch training script (about 600 lines) for the language-server
latency benchmark: argument parsing, a dataset, a small transformer, EMA weights, mixed precision,
gradient clipping, checkpoints and evaluation, with the usual tensor-copy habits sprinkled in.
It is data for benchmarks/server_latency.py, never imported or run."""
from __future__ import annotations

import argparse
import copy
import json
import logging
import math
import os
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler

log = logging.getLogger("train")


# ----------------------------------------------------------------------------- configuration
@dataclass
class Config:
    data_dir: str = "data"
    out_dir: str = "runs/default"
    vocab_size: int = 8192
    seq_len: int = 256
    d_model: int = 384
    n_heads: int = 6
    n_layers: int = 6
    dropout: float = 0.1
    batch_size: int = 32
    grad_accum: int = 2
    lr: float = 3e-4
    min_lr: float = 3e-5
    weight_decay: float = 0.1
    betas: Tuple[float, float] = (0.9, 0.95)
    warmup_steps: int = 500
    max_steps: int = 20000
    clip_norm: float = 1.0
    ema_decay: float = 0.999
    eval_every: int = 500
    eval_batches: int = 50
    save_every: int = 2000
    seed: int = 1234
    amp: bool = True
    compile: bool = False
    label_smoothing: float = 0.0
    tags: List[str] = field(default_factory=list)


def parse_args() -> Config:
    cfg = Config()
    parser = argparse.ArgumentParser(description=__doc__)
    for name, value in asdict(cfg).items():
        flag = "--" + name.replace("_", "-")
        if isinstance(value, bool):
            parser.add_argument(flag, action="store_true" if not value else "store_false")
        elif isinstance(value, (list, tuple)):
            parser.add_argument(flag, nargs="+", type=type(value[0]) if value else str)
        else:
            parser.add_argument(flag, type=type(value), default=value)
    args = parser.parse_args()
    for name in asdict(cfg):
        value = getattr(args, name, None)
        if value is not None:
            setattr(cfg, name, value)
    return cfg


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


# ----------------------------------------------------------------------------- data
class TokenDataset(Dataset):
    """Fixed-length windows over a flat array of token ids stored as .npy shards."""

    def __init__(self, directory: str, split: str, seq_len: int) -> None:
        self.seq_len = seq_len
        self.shards = sorted(
            os.path.join(directory, f) for f in os.listdir(directory)
            if f.startswith(split) and f.endswith(".npy"))
        self.arrays = [np.load(s, mmap_mode="r") for s in self.shards]
        self.lengths = [max(0, len(a) - seq_len - 1) for a in self.arrays]
        self.offsets = np.cumsum([0] + self.lengths)

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def __getitem__(self, index: int) -> Tuple[torch.Tensor, torch.Tensor]:
        shard = int(np.searchsorted(self.offsets, index, side="right") - 1)
        start = index - int(self.offsets[shard])
        chunk = np.asarray(self.arrays[shard][start:start + self.seq_len + 1], dtype=np.int64)
        x = torch.from_numpy(chunk[:-1])
        y = torch.from_numpy(chunk[1:])
        return x, y


class RandomWindowSampler(Sampler):
    def __init__(self, length: int, num_samples: int, seed: int = 0) -> None:
        self.length = length
        self.num_samples = num_samples
        self.seed = seed
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __iter__(self) -> Iterator[int]:
        g = torch.Generator()
        g.manual_seed(self.seed + self.epoch)
        yield from torch.randint(0, self.length, (self.num_samples,), generator=g).tolist()

    def __len__(self) -> int:
        return self.num_samples


def make_loaders(cfg: Config) -> Tuple[DataLoader, DataLoader]:
    train = TokenDataset(cfg.data_dir, "train", cfg.seq_len)
    val = TokenDataset(cfg.data_dir, "val", cfg.seq_len)
    sampler = RandomWindowSampler(len(train), cfg.batch_size * cfg.max_steps, cfg.seed)
    train_loader = DataLoader(train, batch_size=cfg.batch_size, sampler=sampler,
                              num_workers=4, pin_memory=True, drop_last=True)
    val_loader = DataLoader(val, batch_size=cfg.batch_size, shuffle=False, num_workers=2)
    return train_loader, val_loader


# ----------------------------------------------------------------------------- model
class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = x.pow(2).mean(dim=-1, keepdim=True).add(self.eps).rsqrt()
        return x * norm * self.weight


def rotary_cache(seq_len: int, dim: int, base: float = 10000.0) -> Tuple[torch.Tensor, torch.Tensor]:
    inv = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    t = torch.arange(seq_len).float()
    freqs = torch.outer(t, inv)
    return freqs.cos(), freqs.sin()


def apply_rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x1, x2 = x[..., ::2], x[..., 1::2]
    out = torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
    return out.flatten(-2)


class Attention(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.d_model // cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)
        self.dropout = cfg.dropout

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q = q.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        q = apply_rotary(q, cos[:t], sin[:t])
        k = apply_rotary(k, cos[:t], sin[:t])
        y = F.scaled_dot_product_attention(
            q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0)
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.proj(y)


class MLP(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        hidden = int(8 * cfg.d_model / 3)
        self.w1 = nn.Linear(cfg.d_model, hidden, bias=False)
        self.w2 = nn.Linear(hidden, cfg.d_model, bias=False)
        self.w3 = nn.Linear(cfg.d_model, hidden, bias=False)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.w2(F.silu(self.w1(x)) * self.w3(x)))


class Block(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.norm1 = RMSNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.norm2 = RMSNorm(cfg.d_model)
        self.mlp = MLP(cfg)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x), cos, sin)
        return x + self.mlp(self.norm2(x))


class LanguageModel(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layers))
        self.norm = RMSNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.head.weight = self.embed.weight
        cos, sin = rotary_cache(cfg.seq_len, cfg.d_model // cfg.n_heads)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.apply(self._init_weights)

    def _init_weights(self, module: nn.Module) -> None:
        if isinstance(module, nn.Linear):
            nn.init.normal_(module.weight.data, mean=0.0, std=0.02)
            if module.bias is not None:
                module.bias.data.zero_()
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx: torch.Tensor, targets: Optional[torch.Tensor] = None,
                label_smoothing: float = 0.0):
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x, self.cos, self.sin)
        logits = self.head(self.norm(x))
        if targets is None:
            return logits, None
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1),
                               label_smoothing=label_smoothing)
        return logits, loss

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    @torch.no_grad()
    def generate(self, idx: torch.Tensor, steps: int, temperature: float = 1.0,
                 top_k: Optional[int] = None) -> torch.Tensor:
        for _ in range(steps):
            cond = idx[:, -self.cfg.seq_len:]
            logits, _ = self(cond)
            logits = logits[:, -1, :] / max(temperature, 1e-5)
            if top_k is not None:
                v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
                logits[logits < v[:, [-1]]] = -float("inf")
            probs = F.softmax(logits, dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, nxt), dim=1)
        return idx


# ----------------------------------------------------------------------------- optimisation
def param_groups(model: nn.Module, weight_decay: float) -> List[Dict]:
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        (decay if p.dim() >= 2 else no_decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay},
            {"params": no_decay, "weight_decay": 0.0}]


def lr_at(step: int, cfg: Config) -> float:
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    if step >= cfg.max_steps:
        return cfg.min_lr
    ratio = (step - cfg.warmup_steps) / max(1, cfg.max_steps - cfg.warmup_steps)
    coeff = 0.5 * (1.0 + math.cos(math.pi * ratio))
    return cfg.min_lr + coeff * (cfg.lr - cfg.min_lr)


class EMA:
    """Exponential moving average of the model's weights, kept in float32."""

    def __init__(self, model: nn.Module, decay: float) -> None:
        self.decay = decay
        self.shadow = {name: p.clone().detach() for name, p in model.named_parameters()}
        self.backup: Dict[str, torch.Tensor] = {}

    @torch.no_grad()
    def update(self, model: nn.Module) -> None:
        for name, p in model.named_parameters():
            s = self.shadow[name]
            s.mul_(self.decay).add_(p.data, alpha=1.0 - self.decay)

    def swap_in(self, model: nn.Module) -> None:
        for name, p in model.named_parameters():
            self.backup[name] = p.data
            p.data = self.shadow[name]

    def swap_out(self, model: nn.Module) -> None:
        for name, p in model.named_parameters():
            p.data = self.backup[name]
        self.backup = {}

    def state_dict(self) -> Dict[str, torch.Tensor]:
        return {k: torch.tensor(v) for k, v in self.shadow.items()}


def clip_gradients(model: nn.Module, max_norm: float) -> float:
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return 0.0
    norms = torch.stack([g.detach().norm(2) for g in grads])
    total = norms.norm(2)
    scale = max_norm / (total + 1e-6)
    if scale < 1:
        for g in grads:
            g.mul_(scale)
    return float(total)


def manual_sgd_step(model: nn.Module, lr: float) -> None:
    """Used by the tiny sanity run (no optimizer state)."""
    for p in model.parameters():
        if p.grad is None:
            continue
        p.data.add_(p.grad, alpha=-lr)
        p.grad.zero_()


# ----------------------------------------------------------------------------- metrics
class Meter:
    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def update(self, value: float, n: int = 1) -> None:
        self.total += value * n
        self.count += n

    @property
    def mean(self) -> float:
        return self.total / max(1, self.count)


def accuracy(logits: torch.Tensor, targets: torch.Tensor) -> float:
    pred = logits.argmax(dim=-1)
    return (pred == targets).float().mean().item()


def summarize(history: List[Dict[str, float]]) -> Dict[str, float]:
    keys = history[0].keys() if history else []
    return {k: float(np.mean([h[k] for h in history])) for k in keys}


# ----------------------------------------------------------------------------- checkpoints
def save_checkpoint(path: str, model: nn.Module, opt: torch.optim.Optimizer, ema: EMA,
                    step: int, cfg: Config) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    state = {
        "model": {k: v.clone().detach().cpu() for k, v in model.state_dict().items()},
        "opt": opt.state_dict(),
        "ema": ema.state_dict(),
        "step": step,
        "config": asdict(cfg),
    }
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def load_checkpoint(path: str, model: nn.Module, opt: torch.optim.Optimizer, ema: EMA) -> int:
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    for name, value in state["ema"].items():
        ema.shadow[name].copy_(value)
    return int(state["step"])


def latest_checkpoint(out_dir: str) -> Optional[str]:
    if not os.path.isdir(out_dir):
        return None
    found = sorted(f for f in os.listdir(out_dir) if f.startswith("ckpt_") and f.endswith(".pt"))
    return os.path.join(out_dir, found[-1]) if found else None


# ----------------------------------------------------------------------------- evaluation
@torch.no_grad()
def evaluate(model: nn.Module, loader: DataLoader, device: torch.device,
             max_batches: int) -> Dict[str, float]:
    model.eval()
    loss_meter, acc_meter = Meter(), Meter()
    for i, (x, y) in enumerate(loader):
        if i >= max_batches:
            break
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        logits, loss = model(x, y)
        loss_meter.update(loss.item(), x.size(0))
        acc_meter.update(accuracy(logits, y), x.size(0))
    model.train()
    return {"val_loss": loss_meter.mean, "val_acc": acc_meter.mean,
            "val_ppl": math.exp(min(20.0, loss_meter.mean))}


def sample_text(model: LanguageModel, device: torch.device, prompt: List[int],
                steps: int = 64) -> List[int]:
    idx = torch.tensor([prompt], dtype=torch.long, device=device)
    out = model.generate(idx, steps, temperature=0.8, top_k=50)
    return out[0].tolist()


def embedding_drift(model: LanguageModel, reference: torch.Tensor) -> float:
    current = model.embed.weight.data
    return (current - reference).norm().item()


# ----------------------------------------------------------------------------- training loop
class Trainer:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = LanguageModel(cfg).to(self.device)
        self.opt = torch.optim.AdamW(param_groups(self.model, cfg.weight_decay), lr=cfg.lr,
                                     betas=cfg.betas, fused=torch.cuda.is_available())
        self.scaler = torch.cuda.amp.GradScaler(enabled=cfg.amp and self.device.type == "cuda")
        self.ema = EMA(self.model, cfg.ema_decay)
        self.step = 0
        self.history: List[Dict[str, float]] = []
        self.reference = self.model.embed.weight.clone().detach()
        if cfg.compile:
            self.model = torch.compile(self.model)

    def resume(self) -> None:
        path = latest_checkpoint(self.cfg.out_dir)
        if path:
            self.step = load_checkpoint(path, self.model, self.opt, self.ema)
            log.info("resumed from %s at step %d", path, self.step)

    def autocast(self):
        dtype = torch.bfloat16 if self.device.type == "cpu" else torch.float16
        return torch.autocast(self.device.type, dtype=dtype, enabled=self.cfg.amp)

    def train_step(self, batches: List[Tuple[torch.Tensor, torch.Tensor]]) -> Dict[str, float]:
        cfg = self.cfg
        lr = lr_at(self.step, cfg)
        for group in self.opt.param_groups:
            group["lr"] = lr
        total_loss = 0.0
        for x, y in batches:
            x, y = x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
            with self.autocast():
                _, loss = self.model(x, y, label_smoothing=cfg.label_smoothing)
                loss = loss / len(batches)
            self.scaler.scale(loss).backward()
            total_loss += loss.detach().item()
        self.scaler.unscale_(self.opt)
        grad_norm = clip_gradients(self.model, cfg.clip_norm)
        self.scaler.step(self.opt)
        self.scaler.update()
        self.opt.zero_grad(set_to_none=True)
        self.ema.update(self.model)
        self.step += 1
        return {"loss": total_loss, "lr": lr, "grad_norm": grad_norm}

    def maybe_evaluate(self, val_loader: DataLoader) -> Optional[Dict[str, float]]:
        cfg = self.cfg
        if self.step % cfg.eval_every != 0:
            return None
        metrics = evaluate(self.model, val_loader, self.device, cfg.eval_batches)
        self.ema.swap_in(self.model)
        ema_metrics = evaluate(self.model, val_loader, self.device, cfg.eval_batches)
        self.ema.swap_out(self.model)
        metrics.update({f"ema_{k}": v for k, v in ema_metrics.items()})
        metrics["drift"] = embedding_drift(self.model, self.reference)
        return metrics

    def maybe_save(self) -> None:
        if self.step % self.cfg.save_every == 0:
            path = os.path.join(self.cfg.out_dir, f"ckpt_{self.step:07d}.pt")
            save_checkpoint(path, self.model, self.opt, self.ema, self.step, self.cfg)

    def fit(self, train_loader: DataLoader, val_loader: DataLoader) -> None:
        cfg = self.cfg
        start = time.time()
        pending: List[Tuple[torch.Tensor, torch.Tensor]] = []
        for x, y in train_loader:
            pending.append((x, y))
            if len(pending) < cfg.grad_accum:
                continue
            stats = self.train_step(pending)
            pending = []
            self.history.append(stats)
            if self.step % 50 == 0:
                window = summarize(self.history[-50:])
                elapsed = time.time() - start
                log.info("step %d loss %.4f lr %.2e gnorm %.2f (%.1f s)", self.step,
                         window["loss"], window["lr"], window["grad_norm"], elapsed)
            metrics = self.maybe_evaluate(val_loader)
            if metrics:
                log.info("eval %s", json.dumps(metrics))
            self.maybe_save()
            if self.step >= cfg.max_steps:
                break


# ----------------------------------------------------------------------------- sanity checks
def overfit_one_batch(cfg: Config, steps: int = 100) -> float:
    small = copy.deepcopy(cfg)
    small.n_layers, small.d_model, small.n_heads = 2, 64, 2
    model = LanguageModel(small)
    x = torch.randint(0, small.vocab_size, (4, small.seq_len))
    y = torch.roll(x, -1, dims=1)
    loss = torch.zeros(())
    for _ in range(steps):
        _, loss = model(x, y)
        loss.backward()
        manual_sgd_step(model, 1e-2)
    return loss.item()


def check_gradients(model: nn.Module) -> Dict[str, float]:
    out = {}
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        g = p.grad.data
        out[name] = g.norm().item()
    return out


def weight_snapshot(model: nn.Module) -> List[torch.Tensor]:
    snaps = []
    for p in model.parameters():
        snaps.append(p.data.cpu())
    return snaps


def compare_snapshots(before: List[torch.Tensor], after: List[torch.Tensor]) -> float:
    deltas = [torch.tensor(a) - torch.tensor(b) for a, b in zip(after, before)]
    return float(sum(d.norm() for d in deltas))


def perturb_weights(model: nn.Module, scale: float) -> None:
    for p in model.parameters():
        noise = torch.randn_like(p) * scale
        w = p.detach()
        w.add_(noise)


def interpolate(model_a: nn.Module, model_b: nn.Module, alpha: float) -> nn.Module:
    out = copy.deepcopy(model_a)
    for pa, pb, po in zip(model_a.parameters(), model_b.parameters(), out.parameters()):
        mixed = torch.empty_like(pa).copy_(pa)
        mixed.mul_(1 - alpha).add_(pb.detach(), alpha=alpha)
        with torch.no_grad():
            po.copy_(mixed)
    return out


def token_histogram(loader: DataLoader, vocab: int, batches: int = 10) -> torch.Tensor:
    counts = torch.zeros(vocab, dtype=torch.long)
    for i, (x, _) in enumerate(loader):
        if i >= batches:
            break
        counts += torch.bincount(x.flatten(), minlength=vocab)
    return counts


def loss_curve_stats(losses: List[float]) -> Dict[str, float]:
    t = torch.tensor(losses)
    smooth = t.clone()
    for i in range(1, len(smooth)):
        smooth[i] = 0.9 * smooth[i - 1] + 0.1 * t[i]
    return {"min": t.min().item(), "last": smooth[-1].item(),
            "mean": t.mean().item(), "std": t.std().item()}


# ----------------------------------------------------------------------------- reporting
def write_report(out_dir: str, trainer: Trainer, extra: Dict[str, float]) -> str:
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "report.json")
    report = {
        "steps": trainer.step,
        "params": trainer.model.num_params() if hasattr(trainer.model, "num_params") else None,
        "final": summarize(trainer.history[-100:]),
        "config": asdict(trainer.cfg),
        **extra,
    }
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2, default=str)
    return path


def describe(model: nn.Module) -> str:
    lines = []
    for name, module in model.named_children():
        n = sum(p.numel() for p in module.parameters())
        lines.append(f"{name:12s} {type(module).__name__:20s} {n:>12,d}")
    return "\n".join(lines)


def export_weights(model: nn.Module, path: str) -> None:
    arrays = {}
    for name, p in model.named_parameters():
        arrays[name] = p.detach().cpu().numpy()
    np.savez(path, **arrays)


def import_weights(model: nn.Module, path: str) -> None:
    data = np.load(path)
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(torch.from_numpy(data[name]))


# ----------------------------------------------------------------------------- main
def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    cfg = parse_args()
    set_seed(cfg.seed)
    os.makedirs(cfg.out_dir, exist_ok=True)
    with open(os.path.join(cfg.out_dir, "config.json"), "w", encoding="utf-8") as fh:
        json.dump(asdict(cfg), fh, indent=2)
    final_loss = overfit_one_batch(cfg)
    log.info("sanity: overfit one batch to loss %.3f", final_loss)
    train_loader, val_loader = make_loaders(cfg)
    trainer = Trainer(cfg)
    trainer.resume()
    log.info("model:\n%s", describe(trainer.model))
    before = weight_snapshot(trainer.model)
    trainer.fit(train_loader, val_loader)
    after = weight_snapshot(trainer.model)
    extra = {"weight_change": compare_snapshots(before, after)}
    extra.update(check_gradients(trainer.model))
    extra.update(loss_curve_stats([h["loss"] for h in trainer.history]))
    path = write_report(cfg.out_dir, trainer, extra)
    log.info("report written to %s", path)
    prompt = [1, 2, 3]
    tokens = sample_text(trainer.model, trainer.device, prompt)
    log.info("sample: %s", tokens[:32])
    export_weights(trainer.model, os.path.join(cfg.out_dir, "weights.npz"))


if __name__ == "__main__":
    main()
