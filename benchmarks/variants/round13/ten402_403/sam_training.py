"""SAM training loop (two forward/backward passes per step) with best-checkpoint tracking."""
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SAM:
    def __init__(self, params, base_optimizer, rho=0.05):
        self.params = [p for p in params if p.requires_grad]  # ok
        self.base = base_optimizer
        self.rho = rho
        self.saved = {}

    @torch.no_grad()
    def ascend(self):
        norm = torch.norm(torch.stack([p.grad.norm() for p in self.params if p.grad is not None]))
        for p in self.params:
            if p.grad is None:
                continue
            self.saved[p] = p.detach().clone()  # ok
            p.add_(p.grad, alpha=self.rho / (norm.item() + 1e-12))

    @torch.no_grad()
    def descend(self):
        for p in self.params:
            if p in self.saved:
                p.copy_(self.saved[p])
        self.saved.clear()
        self.base.step()

    def zero_grad(self):
        self.base.zero_grad(set_to_none=True)


def loaders(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(80, 5, generator=g)
    y = (x[:, 0] * x[:, 1] > 0).long()
    return (x[:60].to(device), y[:60].to(device)), (x[60:].to(device), y[60:].to(device))


def train(epochs=8, seed=0):
    torch.manual_seed(seed)
    (x, y), (xv, yv) = loaders(seed)
    model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
    sam = SAM(model.parameters(), torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9))
    best_acc, best_state = -1.0, None
    for _ in range(epochs):
        F.cross_entropy(model(x), y).backward()
        sam.ascend()
        sam.zero_grad()
        F.cross_entropy(model(x), y).backward()
        sam.descend()
        sam.zero_grad()
        with torch.no_grad():
            acc = (model(xv).argmax(1) == yv).float().mean().item()
        if acc > best_acc:
            best_acc = acc
            best_state = {k: v.cpu() for k, v in model.state_dict().items()}  # either
    return model, best_acc, best_state


def evaluate_state(state, seed=0):
    model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 2))
    model.load_state_dict(state)  # ok
    _, (xv, yv) = loaders(seed)
    with torch.no_grad():
        return (model(xv.cpu()).argmax(1) == yv.cpu()).float().mean().item()


if __name__ == "__main__":
    model, best_acc, best_state = train()
    print("best acc during training", best_acc, "re-evaluated", evaluate_state(best_state))
