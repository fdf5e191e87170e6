"""pix2pix-flavoured GAN loop on random tensors."""
import argparse
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.WARNING)
LOG = logging.getLogger("gan")


def get_models():
    G = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
    D = nn.Sequential(nn.Linear(32, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    return G, D


def main(opt):
    G, D = get_models()
    bce, l1 = nn.BCEWithLogitsLoss(), nn.L1Loss()
    opt_g = torch.optim.Adam(G.parameters(), lr=opt.lr, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(D.parameters(), lr=opt.lr, betas=(0.5, 0.999))
    d_losses, g_losses = [], []
    for epoch in range(opt.n_epochs):
        l1_total = 0.0
        adv_total = 0.0
        for i in range(opt.iters):
            real_a, real_b = torch.randn(8, 16), torch.randn(8, 16)
            fake_b = G(real_a)
            # discriminator
            opt_d.zero_grad()
            pred_real = D(torch.cat([real_a, real_b], 1))
            pred_fake = D(torch.cat([real_a, fake_b.detach()], 1))
            d_loss = 0.5 * (bce(pred_real, torch.ones_like(pred_real)) + bce(pred_fake, torch.zeros_like(pred_fake)))
            d_loss.backward()
            opt_d.step()
            d_losses.append(d_loss)  # expect: TEN501
            # generator
            opt_g.zero_grad()
            pred_fake = D(torch.cat([real_a, fake_b], 1))
            loss_adv = bce(pred_fake, torch.ones_like(pred_fake))
            loss_l1 = l1(fake_b, real_b)
            g_loss = loss_adv + opt.lambda_l1 * loss_l1
            g_loss.backward()
            opt_g.step()
            g_losses.append(g_loss.item())  # ok
            l1_total += loss_l1  # expect: TEN501
            adv_total += loss_adv.detach()  # ok
        LOG.info("epoch %d: L1 %.4f adv %.4f", epoch, l1_total / opt.iters, adv_total / opt.iters)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--n_epochs", type=int, default=2)
    p.add_argument("--iters", type=int, default=4)
    p.add_argument("--lr", type=float, default=2e-4)
    p.add_argument("--lambda_l1", type=float, default=100.0)
    main(p.parse_args([]))
