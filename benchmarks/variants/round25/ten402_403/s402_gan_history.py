"""1-D GAN; generator snapshots kept to evaluate earlier generators at the end."""
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
og = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
od = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
real_mu = 3.0
g_hist = []
d_norms = []
for it in range(120):
    real = real_mu + 0.5 * torch.randn(32, 1)
    z = torch.randn(32, 2)
    fake = G(z)
    od.zero_grad()
    (bce(D(real), torch.ones(32, 1)) + bce(D(fake.detach()), torch.zeros(32, 1))).backward()
    od.step()
    og.zero_grad()
    bce(D(fake), torch.ones(32, 1)).backward()
    og.step()
    if it % 40 == 39:
        g_hist.append(G.state_dict())  # expect: TEN402
        d_sd = D.state_dict()  # ok
        d_norms.append(sum(v.norm().item() for v in d_sd.values()))
evalG = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
zt = torch.randn(500, 2)
with torch.no_grad():
    for i, sd in enumerate(g_hist):
        evalG.load_state_dict(sd)
        print(f"snapshot {i}: mean {evalG(zt).mean().item():.5f} std {evalG(zt).std().item():.5f}")
print("D norms", [round(n, 4) for n in d_norms])
