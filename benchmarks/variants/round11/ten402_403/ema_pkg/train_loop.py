"""Denoising training loop with an EMA copy for evaluation and a frozen feature teacher."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .shadow import ClonedEMA, ShadowEMA, trainable_params


class Denoiser(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.SiLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.SiLU(),
            nn.Conv2d(ch, 3, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


def main(steps=1000, use_cloned=False):
    model = Denoiser()
    teacher = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Tanh()).eval().requires_grad_(False)
    teacher_sd = teacher.state_dict()  # ok
    ema = ClonedEMA(model) if use_cloned else ShadowEMA(model)
    init = trainable_params(model)  # expect: TEN402
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    for step in range(steps):
        clean = torch.rand(8, 3, 32, 32)
        noisy = clean + 0.2 * torch.randn_like(clean)
        out = model(noisy)
        loss = F.mse_loss(out, clean) + 0.1 * F.mse_loss(teacher(out), teacher(clean))
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        if step % 200 == 0:
            dist = sum((p - p0).norm() ** 2 for p, p0 in zip(model.parameters(), init)) ** 0.5
            print(step, loss.item(), float(dist))
    ema.swap_in(model)
    torch.save({"ema": model.state_dict(), "teacher": teacher_sd}, "denoiser_ema.pt")  # ok
    ema.swap_out(model)


if __name__ == "__main__":
    main(50)
