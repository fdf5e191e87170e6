import torch
import torch.nn.functional as F


def gan_step(G, D, opt_g, opt_d, real, pool, pool_ok, stats, stats_ok):
    z = torch.randn(real.size(0), 3)
    fake = G(z)
    pool.push(fake)  # expect: TEN501
    pool_ok.push(fake.detach())  # ok
    replay = pool_ok.sample()
    d_real, d_fake = D(real), D(replay)
    d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = F.softplus(-D(fake)).mean()
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    stats.record("d_loss", d_loss)  # expect: TEN501
    stats_ok.record("d_loss", d_loss.item())  # ok
    stats_ok.record("g_loss", g_loss.detach())  # ok
    return d_loss.item(), g_loss.item()
