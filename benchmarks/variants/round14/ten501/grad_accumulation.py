"""Gradient accumulation over micro-batches with a scaled loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyTransformerBlock(nn.Module):
    def __init__(self, d=16, heads=2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 32), nn.GELU(), nn.Linear(32, d))
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.out = nn.Linear(d, 2)

    def forward(self, x):
        h = self.norm1(x + self.attn(x, x, x, need_weights=False)[0])
        h = self.norm2(h + self.ff(h))
        return self.out(h.mean(1))


def main(optimizer_steps=4, accum_steps=4, micro_bs=6):
    torch.manual_seed(0)
    seqs = torch.randn(optimizer_steps * accum_steps * micro_bs, 5, 16)
    labels = (seqs[:, :, 0].sum(1) > 0).long()
    model = TinyTransformerBlock()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    accum_loss = 0.0
    accum_loss_logged = torch.zeros(())
    step_losses = []
    micro_losses = []
    for it, (xb, yb) in enumerate(zip(seqs.split(micro_bs), labels.split(micro_bs))):
        loss = F.cross_entropy(model(xb), yb) / accum_steps
        loss.backward()
        accum_loss += loss  # expect: TEN501
        accum_loss_logged += loss.detach()  # ok
        micro_losses.append(loss)  # either
        if (it + 1) % accum_steps == 0:
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad()
            step_losses.append(sum(float(l) for l in micro_losses))  # ok
            micro_losses = []
            print(f"opt step {(it + 1) // accum_steps}: loss={step_losses[-1]:.4f}")
    print("mean", accum_loss.item() / optimizer_steps, accum_loss_logged.item() / optimizer_steps)


if __name__ == "__main__":
    main()
