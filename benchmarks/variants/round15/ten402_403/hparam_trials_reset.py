"""Run several lr trials from the same initialisation by resetting the weights between trials."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X, Y = torch.randn(100, 8), torch.randint(0, 2, (100,))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 24)
        self.bn = nn.BatchNorm1d(24)
        self.fc2 = nn.Linear(24, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def run_trial(model, lr, steps=20):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(X), Y).backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        return F.cross_entropy(model(X), Y).item()


def sweep(model, lrs):
    initial_params = [p.detach() for p in model.parameters()]  # expect: TEN402
    initial_buffers = [b.clone() for b in model.buffers()]  # ok
    results = {}
    for lr in lrs:
        with torch.no_grad():
            for p, p0 in zip(model.parameters(), initial_params):
                p.copy_(p0)
            for b, b0 in zip(model.buffers(), initial_buffers):
                b.copy_(b0)  # ok
        results[lr] = run_trial(model, lr)
    return results


def sweep_fixed(model, lrs):
    initial = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    results = {}
    for lr in lrs:
        model.load_state_dict(initial)
        results[lr] = run_trial(model, lr)
    return results


if __name__ == "__main__":
    lrs = [0.3, 0.1, 0.03]
    print("live init:", sweep(Classifier(), lrs))
    torch.manual_seed(0)
    print("cloned init:", sweep_fixed(Classifier(), lrs))
