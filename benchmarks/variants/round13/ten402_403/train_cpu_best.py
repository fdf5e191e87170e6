"""Small CPU-only classifier script: keeps the best epoch's weights in RAM."""
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cpu"
torch.set_num_threads(1)


class TinyNet(nn.Module):
    def __init__(self, n_in=10, n_hidden=32, n_cls=3):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.bn = nn.BatchNorm1d(n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_cls)

    def forward(self, x):
        return self.fc2(F.relu(self.bn(self.fc1(x))))


def synthetic_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(3, 10, generator=torch.Generator().manual_seed(7)) * 2
    y = torch.randint(0, 3, (n,), generator=g)
    x = centers[y] + torch.randn(n, 10, generator=g) * 1.5
    return x.to(device), y.to(device)


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def train(epochs=15, lr=0.2):
    torch.manual_seed(1)
    x_tr, y_tr = synthetic_split(96, 0)
    x_va, y_va = synthetic_split(48, 1)
    model = TinyNet().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr)

    best_acc, best_weights = -1.0, None
    last_good = None
    for epoch in range(epochs):
        model.train()
        for idx in torch.randperm(96).split(16):
            opt.zero_grad()
            F.cross_entropy(model(x_tr[idx]), y_tr[idx]).backward()
            opt.step()
        acc = accuracy(model, x_va, y_va)
        if not torch.isfinite(model.fc1.weight).all():
            break
        last_good = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        if acc > best_acc:
            best_acc = acc
            # move to host memory so the copy does not sit on the accelerator
            best_weights = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402

    final_host = {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}  # ok
    if best_weights is not None:
        model.load_state_dict(best_weights)
    return model, best_acc, last_good, final_host, (x_va, y_va)


if __name__ == "__main__":
    model, best_acc, last_good, final_host, (xv, yv) = train()
    print("best val acc", round(best_acc, 3))
    print("acc after restoring best", round(accuracy(model, xv, yv), 3))
