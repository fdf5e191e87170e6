import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-2, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-2, betas=(0.5, 0.9))
bce = nn.BCEWithLogitsLoss()


def real_batch(n=64):
    return torch.randn(n, 2) * 0.3 + torch.tensor([2.0, -1.0])


def mean_gap(gen):
    with torch.no_grad():
        fake = gen(torch.randn(512, 2))
    return (fake.mean(0) - torch.tensor([2.0, -1.0])).norm().item()


best_gap, g_best, d_at_best = float("inf"), None, None
for it in range(200):
    real, z = real_batch(), torch.randn(64, 2)
    fake = G(z)
    d_loss = bce(D(real), torch.ones(64, 1)) + bce(D(fake.detach()), torch.zeros(64, 1))
    opt_d.zero_grad(); d_loss.backward(); opt_d.step()
    g_loss = bce(D(fake), torch.ones(64, 1))
    opt_g.zero_grad(); g_loss.backward(); opt_g.step()
    if it % 10 == 9:
        gap = mean_gap(G)
        if gap < best_gap:
            best_gap = gap
            g_best = G.state_dict()  # expect: TEN402
            d_at_best = copy.deepcopy(D.state_dict())  # ok
        print(f"it {it} d {d_loss.item():.4f} g {g_loss.item():.4f} gap {gap:.4f}")

G.load_state_dict(g_best)
D.load_state_dict(d_at_best)
with torch.no_grad():
    score = torch.sigmoid(D(G(torch.randn(256, 2)))).mean().item()
print(f"best gap {best_gap:.4f} restored gap {mean_gap(G):.4f} D(G(z)) {score:.4f}")
