"""Assorted training utilities with live state-dict snapshots."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gan_training(G, D, steps=20, zdim=8):
    opt_g = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    best_fid, best_g, best_d = float("inf"), None, None
    for step in range(steps):
        real = torch.randn(16, 4)
        fake = G(torch.randn(16, zdim))
        opt_d.zero_grad()
        d_loss = F.softplus(-D(real)).mean() + F.softplus(D(fake.detach())).mean()
        d_loss.backward()
        opt_d.step()
        opt_g.zero_grad()
        g_loss = F.softplus(-D(fake)).mean()
        g_loss.backward()
        opt_g.step()
        fid = float((fake.mean(0) - real.mean(0)).abs().sum())
        if fid < best_fid:
            best_fid = fid
            best_g = G.state_dict()  # expect: TEN402
            best_d = D.state_dict()  # expect: TEN402
    torch.save({"G": best_g, "D": best_d, "fid": best_fid}, "/tmp/_ten40x_gan.pt")


def accumulate_and_check(model, micro_batches):
    """Gradient accumulation; checks that a parameter moved after the step."""
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    initial = model.state_dict()  # expect: TEN402
    for x, y in micro_batches:
        (F.mse_loss(model(x), y) / len(micro_batches)).backward()
    opt.step()
    moved = [k for k, v in model.state_dict().items() if not torch.equal(v, initial[k])]
    assert moved, "no parameter moved: learning rate zero?"


def train_one_epoch(model, optimizer, data):
    for x, y in data:
        optimizer.zero_grad()
        F.mse_loss(model(x), y).backward()
        optimizer.step()


def weight_drift(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    ref = model.state_dict()  # expect: TEN402
    train_one_epoch(model, opt, data)
    return {k: (v - ref[k]).norm().item() for k, v in model.state_dict().items()}


def reload_pretrained(model, path):
    """Compare the randomly initialised weights with the pretrained ones."""
    init_state = model.state_dict()  # expect: TEN402
    model.load_state_dict(torch.load(path))
    for k, v in model.state_dict().items():
        print(k, "changed by", (v - init_state[k]).abs().max().item())


def batchnorm_stats(model, data):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    stats_before = model.state_dict()  # expect: TEN402
    model.train()
    for x, y in data:
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
    print(stats_before["0.running_mean"], model.state_dict()["0.running_mean"])


if __name__ == "__main__":
    G = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
    D = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    gan_training(G, D)
    data = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    try:
        accumulate_and_check(nn.Linear(3, 1), data)
    except AssertionError as e:
        print('bug shows:', e)
    print(weight_drift(nn.Linear(3, 1), data))
    torch.save(nn.Linear(3, 1).state_dict(), "/tmp/_ten40x_lin.pt")
    reload_pretrained(nn.Linear(3, 1), "/tmp/_ten40x_lin.pt")
    batchnorm_stats(nn.Sequential(nn.BatchNorm1d(3), nn.Linear(3, 1)), data)
