"""Uncertainty-weighted multitask loss; diagnostics derived from parameters."""
import torch
import torch.nn as nn


class MultiTaskNet(nn.Module):
    def __init__(self, n_tasks=2):
        super().__init__()
        self.shared = nn.Linear(5, 12)
        self.heads = nn.ModuleList([nn.Linear(12, 1) for _ in range(n_tasks)])
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, x):
        h = torch.relu(self.shared(x))
        return [head(h).squeeze(-1) for head in self.heads]


def weighted_loss(model, preds, targets):
    total = 0.0
    for i, (p, t) in enumerate(zip(preds, targets)):
        precision = torch.exp(-model.log_vars[i])
        total = total + precision * (p - t).pow(2).mean() + model.log_vars[i]  # ok
    return total


def train(model, steps=6):
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    weight_history, weight_history_np = [], []
    param_snapshots, param_snapshots_ok = [], []
    weight_norms, weight_norms_ok = [], []
    grad_norms = []
    for step in range(steps):
        x = torch.randn(16, 5)
        targets = [x.sum(1), x[:, 0] * 3.0]
        loss = weighted_loss(model, model(x), targets)
        opt.zero_grad()
        loss.backward()
        grad_norms.append(model.shared.weight.grad.norm())  # ok
        opt.step()
        weight_history.append(torch.exp(-model.log_vars))  # expect: TEN501
        weight_history_np.append(torch.exp(-model.log_vars).detach().numpy().copy())  # ok
        param_snapshots.append(model.shared.weight.clone())  # expect: TEN501
        param_snapshots_ok.append(model.shared.weight.detach().clone())  # ok
        weight_norms.append(model.shared.weight.norm())  # expect: TEN501
        weight_norms_ok.append(model.shared.weight.data.norm())  # ok
    return weight_history, param_snapshots, weight_norms, grad_norms


if __name__ == "__main__":
    torch.manual_seed(0)
    wh, ps, wn, gn = train(MultiTaskNet())
    print(wh[-1], len(ps), float(wn[-1]), float(gn[-1]))
