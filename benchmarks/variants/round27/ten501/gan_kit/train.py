"""GAN training step functions (hinge loss + lazy R1)."""
import torch

from .losses import d_hinge, g_hinge, r1_penalty


def d_step(G, D, opt_d, real, nz, do_r1):
    real = real.requires_grad_(do_r1)
    fake = G(torch.randn(real.size(0), nz)).detach()
    real_logits = D(real)
    loss = d_hinge(real_logits, D(fake))
    r1 = r1_penalty(real_logits, real) if do_r1 else torch.zeros(())
    opt_d.zero_grad()
    (loss + 5.0 * r1).backward()
    opt_d.step()
    return loss, r1


def g_step(G, D, opt_g, n, nz):
    fake = G(torch.randn(n, nz))
    loss = g_hinge(D(fake))
    opt_g.zero_grad()
    loss.backward()
    opt_g.step()
    return loss, fake


def train(G, D, steps, nz, hist, hist_safe, sample_bank):
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.99))
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.99))
    d_running = 0.0
    for step in range(steps):
        real = torch.randn(16, 2) * 0.3 + torch.tensor([1.0, 1.0])
        d_loss, r1 = d_step(G, D, opt_d, real, nz, do_r1=(step % 2 == 0))
        g_loss, fake = g_step(G, D, opt_g, 16, nz)
        hist.record(d_loss, g_loss, r1)  # expect: TEN501
        hist_safe.record(d_loss, g_loss, r1)  # ok
        d_running = 0.9 * d_running + 0.1 * d_loss  # expect: TEN501
        sample_bank.append(fake[:2].detach())  # ok
    return d_running
