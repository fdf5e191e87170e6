"""Energy-based model trained with persistent contrastive divergence (SGLD sampler + replay buffer)."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T


class EnergyNet(nn.Module):
    def __init__(self, ch=64):
        super().__init__()
        self.f = nn.Sequential(
            nn.Conv2d(3, ch, 3, 1, 1), nn.SiLU(),
            nn.Conv2d(ch, ch * 2, 4, 2, 1), nn.SiLU(),
            nn.Conv2d(ch * 2, ch * 4, 4, 2, 1), nn.SiLU(),
            nn.Conv2d(ch * 4, ch * 4, 4, 2, 1), nn.SiLU(),
            nn.Flatten(), nn.Linear(ch * 4 * 16, 1),
        )

    def forward(self, x):
        return self.f(x).squeeze(-1)


class ReplayBuffer:
    def __init__(self, capacity=10000, shape=(3, 32, 32), reinit_prob=0.05):
        self.capacity = capacity
        self.shape = shape
        self.reinit_prob = reinit_prob
        self.storage = torch.rand(0, *shape) * 2 - 1

    def __len__(self):
        return self.storage.size(0)

    def sample(self, n, device):
        if len(self) < n:
            return (torch.rand(n, *self.shape) * 2 - 1).to(device)
        idx = torch.randint(0, len(self), (n,))
        x = self.storage[idx].clone()
        reinit = torch.rand(n) < self.reinit_prob
        x[reinit] = torch.rand(int(reinit.sum()), *self.shape) * 2 - 1
        return x.to(device)

    def push(self, samples):
        self.storage = torch.cat([self.storage, samples.cpu()])[-self.capacity:]  # ok


@torch.no_grad()
def langevin_sample(energy_fn, x_init, n_steps=60, step_size=1.0, noise=0.01, return_trace=False):
    x = x_init.clone()
    trace = []
    for _ in range(n_steps):
        x = x.detach().requires_grad_(True)
        with torch.enable_grad():
            energy = energy_fn(x)
            grad_x = torch.autograd.grad(energy.sum(), x)[0]
            if return_trace:
                trace.append(energy.mean())  # expect: TEN501
        x = x - step_size * grad_x + noise * torch.randn_like(x)
        x = x.clamp(-1.0, 1.0)
    return x.detach(), trace


def train(epochs=50, batch_size=128, alpha=0.1, lr=1e-4, log_every=100, device="cuda"):
    tf = T.Compose([T.ToTensor(), T.Normalize((0.5,) * 3, (0.5,) * 3)])
    data = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=tf)
    loader = torch.utils.data.DataLoader(data, batch_size=batch_size, shuffle=True, drop_last=True)

    model = EnergyNet().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.0, 0.999))
    buffer = ReplayBuffer()
    gap_hist = []
    step = 0
    for epoch in range(epochs):
        for x_pos, _ in loader:
            x_pos = (x_pos + 0.005 * torch.randn_like(x_pos)).to(device)
            x0 = buffer.sample(batch_size, device)
            x_neg, trace = langevin_sample(model, x0, return_trace=(step % log_every == 0))
            buffer.push(x_neg)  # ok

            e_pos = model(x_pos).mean()
            e_neg = model(x_neg).mean()
            loss = e_pos - e_neg + alpha * (e_pos ** 2 + e_neg ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()

            gap_hist.append(e_neg - e_pos)  # expect: TEN501
            if trace:
                print(f"step {step}: sampler energy {trace[0].item():.3f} -> {trace[-1].item():.3f}, "
                      f"gap {gap_hist[-1].item():.3f}")
            step += 1
        if random.random() < 0.2:
            torchvision.utils.save_image(x_neg[:64] * 0.5 + 0.5, f"ebm_samples_{epoch}.png")
    return model
