"""RealNVP with affine coupling layers, trained on dequantized CIFAR-10."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T


class AffineCoupling(nn.Module):
    def __init__(self, channels, hidden=256, mask_type="checker", reverse_mask=False):
        super().__init__()
        self.mask_type = mask_type
        self.reverse_mask = reverse_mask
        self.net = nn.Sequential(
            nn.Conv2d(channels, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 1), nn.ReLU(),
            nn.Conv2d(hidden, 2 * channels, 3, padding=1),
        )
        self.scale = nn.Parameter(torch.ones(channels, 1, 1))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def _mask(self, x):
        h, w = x.shape[-2:]
        ii, jj = torch.meshgrid(torch.arange(h, device=x.device), torch.arange(w, device=x.device), indexing="ij")
        m = ((ii + jj) % 2).float().view(1, 1, h, w)
        return 1 - m if self.reverse_mask else m

    def forward(self, x, reverse=False):
        b = self._mask(x)
        st = self.net(x * b)
        s, t = st.chunk(2, dim=1)
        s = self.scale * torch.tanh(s)
        s = s * (1 - b)
        t = t * (1 - b)
        if not reverse:
            y = x * torch.exp(s) + t
            return y, s.flatten(1).sum(1)
        return (x - t) * torch.exp(-s), -s.flatten(1).sum(1)


class RealNVP(nn.Module):
    def __init__(self, channels=3, n_layers=8, hidden=128):
        super().__init__()
        self.layers = nn.ModuleList(
            [AffineCoupling(channels, hidden, reverse_mask=bool(i % 2)) for i in range(n_layers)]
        )

    def forward(self, x):
        log_det = torch.zeros(x.size(0), device=x.device)
        for layer in self.layers:
            x, ld = layer(x)
            log_det = log_det + ld  # ok
        return x, log_det

    def inverse(self, z):
        for layer in reversed(self.layers):
            z, _ = layer(z, reverse=True)
        return z


def preprocess(x, alpha=0.05):
    x = (x * 255.0 + torch.rand_like(x)) / 256.0
    x = alpha + (1 - 2 * alpha) * x
    return torch.log(x) - torch.log1p(-x)


def prior_log_prob(z):
    return (-0.5 * (z ** 2) - 0.5 * math.log(2 * math.pi)).flatten(1).sum(1)


@torch.no_grad()
def sample(flow, n, shape=(3, 32, 32), temperature=0.7, chunk=64, device="cuda"):
    flow.eval()
    samples = []
    for start in range(0, n, chunk):
        z = torch.randn(min(chunk, n - start), *shape, device=device) * temperature
        samples.append(torch.sigmoid(flow.inverse(z)))  # ok
    flow.train()
    return torch.cat(samples)


def train(epochs=100, batch_size=64, lr=1e-3, device="cuda"):
    data = torchvision.datasets.CIFAR10("data", train=True, download=True,
                                        transform=T.Compose([T.RandomHorizontalFlip(), T.ToTensor()]))
    loader = torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True, num_workers=4)
    flow = RealNVP().to(device)
    opt = torch.optim.Adam(flow.parameters(), lr=lr, weight_decay=5e-5)
    n_dims = float(np.prod((3, 32, 32)))

    bpd_trace = []
    for epoch in range(epochs):
        for step, (x, _) in enumerate(loader):
            x = preprocess(x.to(device))
            z, log_det = flow(x)
            nll = -(prior_log_prob(z) + log_det).mean()
            bpd = nll / (math.log(2) * n_dims) + 8.0
            opt.zero_grad()
            bpd.backward()
            nn.utils.clip_grad_norm_(flow.parameters(), 100.0)
            opt.step()
            bpd_trace.append(bpd)  # expect: TEN501
            if step % 200 == 0:
                recent = torch.stack(bpd_trace[-200:]).mean().item()
                print(f"epoch {epoch} step {step} bpd {recent:.3f}")
        torchvision.utils.save_image(sample(flow, 64, device=device), f"samples_{epoch:03d}.png", nrow=8)
    return flow


if __name__ == "__main__":
    train()
