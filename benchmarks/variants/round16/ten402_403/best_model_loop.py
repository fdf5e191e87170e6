# Plain training script that keeps the best weights seen on a held-out split.
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_FEAT = 10


def synthetic(n):
    x = torch.randn(n, N_FEAT)
    logits = x[:, 0] * 2 - x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
    y = (logits + 0.8 * torch.randn(n) > 0).long()
    return x, y


def build():
    return nn.Sequential(nn.Linear(N_FEAT, 48), nn.BatchNorm1d(48), nn.ReLU(), nn.Linear(48, 2))


def val_loss(net, x, y):
    net.eval()
    with torch.no_grad():
        out = nn.functional.cross_entropy(net(x), y).item()
    net.train()
    return out


def train_keep_best_v1(xtr, ytr, xva, yva, epochs=25):
    torch.manual_seed(7)
    net = build()
    opt = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
    best_loss, best_weights = float("inf"), None
    for ep in range(epochs):
        for b in range(0, len(xtr), 40):
            opt.zero_grad()
            nn.functional.cross_entropy(net(xtr[b:b + 40]), ytr[b:b + 40]).backward()
            opt.step()
        cur = val_loss(net, xva, yva)
        if cur < best_loss:
            best_loss = cur
            best_weights = dict(net.state_dict())  # expect: TEN402
    net.load_state_dict(best_weights)
    return best_loss, val_loss(net, xva, yva)


def train_keep_best_v2(xtr, ytr, xva, yva, epochs=25):
    torch.manual_seed(7)
    net = build()
    opt = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
    best_loss, best_weights = float("inf"), None
    for ep in range(epochs):
        for b in range(0, len(xtr), 40):
            opt.zero_grad()
            nn.functional.cross_entropy(net(xtr[b:b + 40]), ytr[b:b + 40]).backward()
            opt.step()
        cur = val_loss(net, xva, yva)
        if cur < best_loss:
            best_loss = cur
            best_weights = copy.deepcopy(net.state_dict())  # ok
    net.load_state_dict(best_weights)
    return best_loss, val_loss(net, xva, yva)


def train_keep_best_v3(xtr, ytr, xva, yva, epochs=25):
    torch.manual_seed(7)
    net = build()
    opt = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
    best = (float("inf"), None)
    for ep in range(epochs):
        for b in range(0, len(xtr), 40):
            opt.zero_grad()
            nn.functional.cross_entropy(net(xtr[b:b + 40]), ytr[b:b + 40]).backward()
            opt.step()
        cur = val_loss(net, xva, yva)
        if cur < best[0]:
            weights = {name: t.detach().cpu().clone() for name, t in net.state_dict().items()}  # ok
            best = (cur, weights)
    net.load_state_dict(best[1])
    return best[0], val_loss(net, xva, yva)


def main():
    xtr, ytr = synthetic(400)
    xva, yva = synthetic(200)
    for fn in (train_keep_best_v1, train_keep_best_v2, train_keep_best_v3):
        b, r = fn(xtr, ytr, xva, yva)
        print(f"{fn.__name__}: best {b:.4f} reloaded {r:.4f}")


if __name__ == "__main__":
    main()
