"""HiFi-GAN vocoder training written as a step generator consumed by a thin driver."""
import itertools
import os
import time
from collections import defaultdict

import torch
import torch.nn.functional as F

from vocoder.data import MelDataset, mel_spectrogram
from vocoder.models import Generator, MultiPeriodDiscriminator, MultiScaleDiscriminator


def feature_loss(fmap_r, fmap_g):
    loss = 0
    for dr, dg in zip(fmap_r, fmap_g):
        for rl, gl in zip(dr, dg):
            loss += torch.mean(torch.abs(rl - gl))  # ok
    return loss * 2


def discriminator_loss(real_outputs, gen_outputs):
    loss = 0
    for dr, dg in zip(real_outputs, gen_outputs):
        loss += torch.mean((1 - dr) ** 2) + torch.mean(dg ** 2)  # ok
    return loss


def generator_loss(disc_outputs):
    loss = 0
    for dg in disc_outputs:
        loss += torch.mean((1 - dg) ** 2)  # ok
    return loss


def train_steps(h, loader, device):
    """Yields a dict of scalars after every optimisation step."""
    generator = Generator(h).to(device)
    mpd = MultiPeriodDiscriminator().to(device)
    msd = MultiScaleDiscriminator().to(device)
    optim_g = torch.optim.AdamW(generator.parameters(), h.learning_rate, betas=(h.adam_b1, h.adam_b2))
    optim_d = torch.optim.AdamW(itertools.chain(msd.parameters(), mpd.parameters()), h.learning_rate,
                                betas=(h.adam_b1, h.adam_b2))
    sched_g = torch.optim.lr_scheduler.ExponentialLR(optim_g, gamma=h.lr_decay)
    sched_d = torch.optim.lr_scheduler.ExponentialLR(optim_d, gamma=h.lr_decay)
    grad_norms_g = []
    while True:
        for x, y, _, y_mel in loader:
            x, y, y_mel = x.to(device), y.to(device).unsqueeze(1), y_mel.to(device)
            y_g_hat = generator(x)
            y_g_hat_mel = mel_spectrogram(y_g_hat.squeeze(1), h.n_fft, h.num_mels, h.sampling_rate,
                                          h.hop_size, h.win_size, h.fmin, h.fmax_for_loss)

            optim_d.zero_grad()
            y_df_r, y_df_g, _, _ = mpd(y, y_g_hat.detach())
            y_ds_r, y_ds_g, _, _ = msd(y, y_g_hat.detach())
            loss_disc_all = discriminator_loss(y_df_r, y_df_g) + discriminator_loss(y_ds_r, y_ds_g)
            loss_disc_all.backward()
            optim_d.step()

            optim_g.zero_grad()
            loss_mel = F.l1_loss(y_mel, y_g_hat_mel) * 45
            _, y_df_g, fmap_f_r, fmap_f_g = mpd(y, y_g_hat)
            _, y_ds_g, fmap_s_r, fmap_s_g = msd(y, y_g_hat)
            loss_fm = feature_loss(fmap_f_r, fmap_f_g) + feature_loss(fmap_s_r, fmap_s_g)
            loss_adv = generator_loss(y_df_g) + generator_loss(y_ds_g)
            loss_gen_all = loss_adv + loss_fm + loss_mel
            loss_gen_all.backward()
            gn = torch.nn.utils.clip_grad_norm_(generator.parameters(), 1000.0)
            optim_g.step()
            grad_norms_g.append(gn)  # ok

            yield {
                "gen": loss_gen_all,
                "disc": loss_disc_all,
                "mel_l1": loss_mel / 45,
                "grad_norm_g": torch.stack(grad_norms_g[-100:]).mean(),
                "models": (generator, mpd, msd),
            }
        sched_g.step()
        sched_d.step()


def run(h, loader, out_dir, max_steps=2_500_000, summary_interval=100, ckpt_interval=5000, device="cuda"):
    totals = defaultdict(float)
    t0 = time.time()
    for step, logs in enumerate(train_steps(h, loader, device), start=1):
        generator, mpd, msd = logs.pop("models")
        for k, v in logs.items():
            totals[k] += v  # expect: TEN501
        if step % summary_interval == 0:
            msg = " ".join(f"{k} {float(v) / step:.4f}" for k, v in totals.items())
            print(f"step {step} | {msg} | {(time.time() - t0) / step:.3f}s/it")
        if step % ckpt_interval == 0:
            torch.save({"generator": generator.state_dict()}, os.path.join(out_dir, f"g_{step:08d}"))
            torch.save({"mpd": mpd.state_dict(), "msd": msd.state_dict()}, os.path.join(out_dir, f"do_{step:08d}"))
        if step >= max_steps:
            break
    return dict(totals)
