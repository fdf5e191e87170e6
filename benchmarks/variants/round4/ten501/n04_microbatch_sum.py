"""Large effective batch via micro-batches: losses are summed and differentiated once per step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualMLP(nn.Module):
    def __init__(self, d=128, depth=4, n_out=10):
        super().__init__()
        self.inp = nn.Linear(32, d)
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(depth)]
        )
        self.out = nn.Linear(d, n_out)

    def forward(self, x):
        h = self.inp(x)
        for blk in self.blocks:
            h = h + blk(h)
        return self.out(h)


def split_microbatches(x, y, n_micro):
    return list(zip(x.chunk(n_micro), y.chunk(n_micro)))


def train(steps=200, batch_size=256, n_micro=8):
    model = ResidualMLP()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95))
    step_losses = []
    for step in range(steps):
        x = torch.randn(batch_size, 32)
        y = (x[:, :10] * x[:, 10:20]).argmax(1)

        total_loss = 0.0
        micro_logits = []
        for xm, ym in split_microbatches(x, y, n_micro):
            logits = model(xm)
            total_loss = total_loss + F.cross_entropy(logits, ym) / n_micro  # ok
            micro_logits.append(logits)  # ok
        # auxiliary consistency term over the whole batch, needs the graph
        all_logits = torch.cat(micro_logits)
        total_loss = total_loss + 1e-3 * all_logits.logsumexp(dim=1).pow(2).mean()

        opt.zero_grad(set_to_none=True)
        total_loss.backward()
        opt.step()
        step_losses.append(total_loss.item())  # ok

        if step % 20 == 0:
            print(f"step {step}: loss {sum(step_losses[-20:]) / len(step_losses[-20:]):.4f}")
    return step_losses


if __name__ == "__main__":
    train()
