"""Regularised classifier where per-step loss terms are gathered in short-lived buffers.

Every buffer here is rebuilt or cleared each iteration and consumed by that iteration's
backward(); only Python floats survive across steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

WD = 1e-4


def main(epochs=2):
    torch.manual_seed(0)
    x = torch.randn(384, 20)
    y = torch.randint(0, 4, (384,))
    loader = DataLoader(TensorDataset(x, y), batch_size=48, shuffle=True)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)

    epoch_means = []
    chunk_outs = []
    for epoch in range(epochs):
        step_values = []
        for step, (xb, yb) in enumerate(loader):
            step_terms = []
            logits = model(xb)
            step_terms.append(F.cross_entropy(logits, yb))  # ok
            step_terms.append(WD * sum(p.pow(2).sum() for p in model.parameters()))  # ok
            objective = torch.stack(step_terms).sum()
            opt.zero_grad()
            objective.backward()
            opt.step()
            step_values.append(objective.item())  # ok

            # consistency term on two halves of the batch
            chunk_outs.clear()
            for part in xb.chunk(2):
                chunk_outs.append(model(part))  # ok
            merged = torch.cat(chunk_outs)
            consistency = F.mse_loss(merged, logits.detach())
            opt.zero_grad()
            consistency.backward()
            opt.step()
        epoch_means.append(sum(step_values) / len(step_values))
        print(f"epoch {epoch}: mean objective {epoch_means[-1]:.4f}")


if __name__ == "__main__":
    main()
