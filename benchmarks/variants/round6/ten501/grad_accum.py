"""Gradient accumulation and micro-batching variants used to fit a large
effective batch on a small device."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AuxNet(nn.Module):
    """Returns logits plus a list of per-block auxiliary regularisers."""

    def __init__(self, d=12, n_cls=4):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(d, d) for _ in range(3)])
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        aux = []
        for blk in self.blocks:
            x = F.gelu(blk(x))
            aux.append(x.pow(2).mean())
        return self.head(x), aux


def train_accumulate(model, loader, opt, accum_steps=4):
    epoch_loss = 0.0
    step_loss = 0.0
    n_updates = 0
    for i, (x, y) in enumerate(loader):
        logits, _ = model(x)
        loss = F.cross_entropy(logits, y) / accum_steps
        loss.backward()
        step_loss += loss.detach()  # ok
        if (i + 1) % accum_steps == 0:
            opt.step()
            opt.zero_grad(set_to_none=True)
            epoch_loss += step_loss  # ok
            step_loss = 0.0
            n_updates += 1
    return float(epoch_loss) / max(n_updates, 1)


def train_microbatched(model, loader, opt, n_micro=4):
    running = []
    for x, y in loader:
        total = 0.0
        for xm, ym in zip(x.chunk(n_micro), y.chunk(n_micro)):
            logits, _ = model(xm)
            total = total + F.cross_entropy(logits, ym) / n_micro  # ok
        opt.zero_grad()
        total.backward()
        opt.step()
        running.append(total.item())
    return sum(running) / len(running)


def train_with_aux(model, loader, opt, aux_weight=0.01):
    aux_terms = []
    history = []
    for x, y in loader:
        logits, aux = model(x)
        aux_terms.extend(aux)  # ok
        loss = F.cross_entropy(logits, y) + aux_weight * torch.stack(aux_terms).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        aux_terms.clear()
        history.append(loss.detach().cpu())
    return torch.stack(history).mean().item()


def train_split_heads(model, loader, opt):
    per_epoch = []
    for x, y in loader:
        parts = []
        for xs, ys in ((x[::2], y[::2]), (x[1::2], y[1::2])):
            logits, _ = model(xs)
            parts.append(F.cross_entropy(logits, ys))  # ok
        loss = torch.stack(parts).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        per_epoch.append(float(loss))
    return per_epoch


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    loader = [(torch.randn(16, 12, generator=g), torch.randint(0, 4, (16,), generator=g)) for _ in range(8)]
    model = AuxNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(2):
        a = train_accumulate(model, loader, opt)
        b = train_microbatched(model, loader, opt)
        c = train_with_aux(model, loader, opt)
        d = train_split_heads(model, loader, opt)
        print(f"epoch {epoch}: accum {a:.4f} micro {b:.4f} aux {c:.4f} split {sum(d) / len(d):.4f}")


if __name__ == "__main__":
    main()
