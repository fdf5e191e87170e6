"""CLIP-style two-tower training that keeps similarity histories with torch.cat."""
import math

import torch
import torch.nn.functional as F
from torch import nn


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.img = nn.Linear(12, 6)
        self.txt = nn.Linear(9, 6)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    def forward(self, a, b):
        za = F.normalize(self.img(a), dim=-1)
        zb = F.normalize(self.txt(b), dim=-1)
        return za @ zb.t()


def clip_loss(sim, scale):
    logits = sim * scale
    labels = torch.arange(sim.size(0))
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2


def main():
    torch.manual_seed(0)
    model = TwoTower()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    sim_history = torch.empty(0)
    sim_hist_det = torch.empty(0)
    pos_sims = torch.empty(0)
    temperature_log, temperature_f = [], []

    for step in range(6):
        a, b = torch.randn(8, 12), torch.randn(8, 9)
        sim = model(a, b)
        scale = model.logit_scale.exp()
        loss = clip_loss(sim, scale)
        opt.zero_grad()
        loss.backward()
        opt.step()

        sim_history = torch.cat([sim_history, sim.diag()])  # expect: TEN501
        sim_hist_det = torch.cat([sim_hist_det, sim.diag().detach()])  # ok
        pos_sims = torch.cat((pos_sims, sim.detach().cpu().flatten()))  # ok
        temperature_log.append(model.logit_scale.exp())  # expect: TEN501
        temperature_f.append(model.logit_scale.exp().item())  # ok

    print(sim_history.shape, sim_hist_det.mean().item(), pos_sims.numel(), round(temperature_f[-1], 3))


if __name__ == "__main__":
    main()
