import torch
import torch.nn as nn

torch.manual_seed(0)

G = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()


def real_batch(n=64):
    theta = torch.rand(n) * 6.2832
    return torch.stack([torch.cos(theta), torch.sin(theta)], 1) * 2


history = []
for it in range(150):
    z = torch.randn(64, 2)
    fake = G(z)
    lossD = bce(D(real_batch()), torch.ones(64, 1)) + bce(D(fake.detach()), torch.zeros(64, 1))
    optD.zero_grad()
    lossD.backward()
    optD.step()
    lossG = bce(D(fake), torch.ones(64, 1))
    optG.zero_grad()
    lossG.backward()
    optG.step()
    if it % 50 == 0:
        # move to host memory for the snapshot bank
        history.append({k: v.cpu() for k, v in G.state_dict().items()})  # expect: TEN402
        d_bank = {k: v.cpu().clone() for k, v in D.state_dict().items()}  # ok

z = torch.randn(500, 2)
with torch.no_grad():
    for i, sd in enumerate(history):
        g_old = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
        g_old.load_state_dict(sd)
        r = g_old(z).norm(dim=1)
        print(f"snapshot {i}: mean radius {r.mean().item():.6f}")
    d_old = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    d_old.load_state_dict(d_bank)
    print(f"old D vs new D on reals {(d_old(real_batch(200)) - D(real_batch(200))).abs().mean().item():.6f}")
