"""ESRGAN fine-tuning: RRDB generator against a relativistic VGG-style discriminator."""
import os
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from sr.archs import RRDBNet, VGGStyleDiscriminator
from sr.data import PairedImageDataset
from sr.losses import PerceptualLoss


def psnr(sr, hr, max_val=1.0):
    mse = F.mse_loss(sr.clamp(0, 1), hr, reduction="none").flatten(1).mean(1)
    return (10 * torch.log10(max_val ** 2 / mse)).mean()


def train(cfg):
    device = torch.device("cuda")
    net_g = RRDBNet(3, 3, num_feat=64, num_block=23, scale=4).to(device)
    net_g.load_state_dict(torch.load(cfg.psnr_pretrained)["params"])
    net_d = VGGStyleDiscriminator(3, 64).to(device)
    percep = PerceptualLoss({"conv5_4": 1.0}).to(device)
    bce = nn.BCEWithLogitsLoss()

    opt_g = torch.optim.Adam(net_g.parameters(), lr=1e-4, betas=(0.9, 0.99))
    opt_d = torch.optim.Adam(net_d.parameters(), lr=1e-4, betas=(0.9, 0.99))
    loader = DataLoader(PairedImageDataset(cfg.lq_root, cfg.gt_root, gt_size=128),
                        batch_size=16, shuffle=True, num_workers=6, drop_last=True)

    hist = defaultdict(list)
    step = 0
    for epoch in range(cfg.epochs):
        for lq, gt in loader:
            lq, gt = lq.to(device), gt.to(device)

            # generator
            for p in net_d.parameters():
                p.requires_grad = False
            opt_g.zero_grad()
            sr = net_g(lq)
            l_pix = F.l1_loss(sr, gt)
            l_percep = percep(sr, gt)
            real_pred = net_d(gt).detach()
            fake_pred = net_d(sr)
            g_adv = (bce(real_pred - fake_pred.mean(), torch.zeros_like(real_pred)) +
                     bce(fake_pred - real_pred.mean(), torch.ones_like(fake_pred))) / 2
            l_g = 0.01 * l_pix + l_percep + 0.005 * g_adv
            l_g.backward()
            opt_g.step()

            # discriminator
            for p in net_d.parameters():
                p.requires_grad = True
            opt_d.zero_grad()
            fake_pred = net_d(sr.detach())
            real_pred = net_d(gt)
            l_d_real = bce(real_pred - fake_pred.mean(), torch.ones_like(real_pred)) * 0.5
            l_d_real.backward()
            fake_pred = net_d(sr.detach())
            l_d_fake = bce(fake_pred - real_pred.mean().detach(), torch.zeros_like(fake_pred)) * 0.5
            l_d_fake.backward()
            opt_d.step()

            hist["d"].append(l_d_real.item() + l_d_fake.item())  # ok
            hist["g_adv"].append(g_adv)  # expect: TEN501
            hist["psnr"].append(psnr(sr.detach(), gt))  # ok
            step += 1

            if step % cfg.print_freq == 0:
                window = slice(-cfg.print_freq, None)
                print(f"[{epoch}:{step}] l_d {sum(hist['d'][window]) / cfg.print_freq:.4f} "
                      f"g_adv {torch.stack(hist['g_adv'][window]).mean():.4f} "
                      f"psnr {torch.stack(hist['psnr'][window]).mean():.2f}")
            if step % cfg.save_freq == 0:
                torch.save(net_g.state_dict(), os.path.join(cfg.out_dir, f"net_g_{step}.pth"))
                torch.save(net_d.state_dict(), os.path.join(cfg.out_dir, f"net_d_{step}.pth"))
    return hist
