"""Minimal character-level GPT trainer."""
import math
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    block_size: int = 256
    batch_size: int = 64
    n_layer: int = 6
    n_head: int = 6
    n_embd: int = 384
    dropout: float = 0.2
    lr: float = 3e-4
    max_steps: int = 5000
    eval_interval: int = 500
    eval_iters: int = 100
    log_interval: int = 50
    grad_clip: float = 1.0
    device: str = "cuda"


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.n_embd)
        self.attn = nn.MultiheadAttention(cfg.n_embd, cfg.n_head, dropout=cfg.dropout, batch_first=True)
        self.ln2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.n_embd, 4 * cfg.n_embd), nn.GELU(),
            nn.Linear(4 * cfg.n_embd, cfg.n_embd), nn.Dropout(cfg.dropout),
        )

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class CharGPT(nn.Module):
    def __init__(self, vocab_size, cfg):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, cfg.n_embd)
        self.pos = nn.Embedding(cfg.block_size, cfg.n_embd)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layer)])
        self.ln_f = nn.LayerNorm(cfg.n_embd)
        self.head = nn.Linear(cfg.n_embd, vocab_size, bias=False)
        mask = torch.triu(torch.ones(cfg.block_size, cfg.block_size, dtype=torch.bool), 1)
        self.register_buffer("mask", mask, persistent=False)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for blk in self.blocks:
            x = blk(x, self.mask[:t, :t])
        return self.head(self.ln_f(x))


def get_batch(data, block_size, batch_size, device):
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x.to(device), y.to(device)


@torch.no_grad()
def estimate_loss(model, splits, cfg):
    model.eval()
    out = {}
    for name, data in splits.items():
        losses = torch.zeros(cfg.eval_iters)
        for k in range(cfg.eval_iters):
            x, y = get_batch(data, cfg.block_size, cfg.batch_size, cfg.device)
            logits = model(x)
            losses[k] = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1)).item()
        out[name] = losses.mean().item()
    model.train()
    return out


def train(model, splits, cfg):
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=0.1)
    losses = []
    grad_norms = []
    total_loss = 0.0
    total_tokens = 0
    t0 = time.time()
    for step in range(cfg.max_steps):
        if step % cfg.eval_interval == 0:
            ev = estimate_loss(model, splits, cfg)
            print(f"step {step}: train {ev['train']:.4f} val {ev['val']:.4f}")

        x, y = get_batch(splits["train"], cfg.block_size, cfg.batch_size, cfg.device)
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))

        opt.zero_grad(set_to_none=True)
        loss.backward()
        grad_norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip))  # ok
        opt.step()

        losses.append(loss.cpu())  # expect: TEN501
        n_tokens = y.numel()
        total_loss += loss.item() * n_tokens  # ok
        total_tokens += n_tokens

        if step % cfg.log_interval == 0 and step > 0:
            recent = torch.stack(losses[-cfg.log_interval:]).mean().item()
            gn = torch.stack(grad_norms[-cfg.log_interval:]).mean().item()
            dt = time.time() - t0
            print(f"step {step} | loss {recent:.4f} | ppl {math.exp(recent):.2f} "
                  f"| gnorm {gn:.2f} | {total_tokens / dt:.0f} tok/s")
    return total_loss / total_tokens


def main(path="input.txt"):
    cfg = Config()
    text = open(path, encoding="utf-8").read()
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
    n = int(0.9 * len(data))
    splits = {"train": data[:n], "val": data[n:]}
    model = CharGPT(len(chars), cfg).to(cfg.device)
    final = train(model, splits, cfg)
    print("mean train loss", final)
    torch.save(model.state_dict(), "chargpt.pt")


if __name__ == "__main__":
    main()
