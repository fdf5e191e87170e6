"""A custom autograd.Function and a WGAN-GP style gradient penalty."""
import torch
from torch import nn


class StraightThroughRound(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, g):
        return g


def quantize(x):
    return StraightThroughRound.apply(x * 4) / 4


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
    out = critic(mix)
    grads, = torch.autograd.grad(out.sum(), mix, create_graph=True)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean(), grads


torch.manual_seed(0)
enc = nn.Linear(5, 3)
dec = nn.Linear(3, 5)
critic = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()) + list(critic.parameters()), lr=1e-2)

codes, codes_det = [], []
gp_hist, gp_hist_f = [], []
grad_norms, grad_norms_f = [], []

for step in range(6):
    x = torch.randn(10, 5)
    code = quantize(enc(x))
    recon = dec(code)
    gp, grads = gradient_penalty(critic, x, recon.detach())
    loss = nn.functional.mse_loss(recon, x) + critic(recon).mean() + 10 * gp
    opt.zero_grad()
    loss.backward()
    opt.step()

    codes.append(code)  # expect: TEN501
    codes_det.append(code.detach().clone())  # ok
    gp_hist.append(gp)  # expect: TEN501
    gp_hist_f.append(gp.item())  # ok
    grad_norms.append(grads.norm(dim=1).mean())  # expect: TEN501
    grad_norms_f.append(grads.detach().norm(dim=1).mean())  # ok

print(len(codes), round(sum(gp_hist_f), 4), torch.stack(grad_norms_f).shape, codes_det[-1][0].tolist())
