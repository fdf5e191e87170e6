"""Atari-style frame stacking with a learned encoder (autoencoder trained online)."""
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class BouncingDotEnv:
    """8x8 image of a dot bouncing around; the action nudges its velocity."""

    def reset(self):
        self.pos = torch.tensor([2.0, 5.0])
        self.vel = torch.tensor([1.0, -1.0])
        self.t = 0
        return self.render()

    def render(self):
        img = torch.zeros(1, 1, 8, 8)
        r, c = self.pos.long().clamp(0, 7).tolist()
        img[0, 0, r, c] = 1.0
        return img + 0.05 * torch.randn_like(img)

    def step(self, action):
        self.vel[1] += (action - 1) * 0.5
        self.pos += self.vel
        for d in range(2):
            if self.pos[d] < 0 or self.pos[d] > 7:
                self.vel[d] = -self.vel[d]
                self.pos[d] = self.pos[d].clamp(0, 7)
        self.t += 1
        return self.render(), float(self.pos[0] > 3), self.t >= 20


class Encoder(nn.Module):
    def __init__(self, z=8):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(64, z))
        self.dec = nn.Linear(z, 64)

    def forward(self, x):
        return self.conv(x)

    def reconstruct(self, z):
        return self.dec(z).view(-1, 1, 8, 8)


class FrameStack:
    def __init__(self, k):
        self.k = k
        self.frames = deque([], maxlen=k)

    def reset(self, frame):
        for _ in range(self.k):
            self.frames.append(frame)

    def push(self, frame):
        self.frames.append(frame)

    def state(self):
        return torch.cat(list(self.frames), dim=-1)


encoder = Encoder()
policy = nn.Linear(8 * 4, 3)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=3e-3)
env = BouncingDotEnv()

latent_stack = FrameStack(4)
pixel_stack = FrameStack(4)
dataset = []          # (latent, action, reward) kept for training a world model later
pixel_dataset = []
recon_losses = []

for episode in range(4):
    obs = env.reset()
    z = encoder(obs)
    latent_stack.reset(z.detach())
    pixel_stack.reset(obs)
    for t in range(20):
        with torch.no_grad():
            action = policy(latent_stack.state()).argmax(-1).item()
        next_obs, reward, done = env.step(action)

        z = encoder(next_obs)
        recon = encoder.reconstruct(z)
        loss = F.mse_loss(recon, next_obs)
        enc_opt.zero_grad()
        loss.backward()
        enc_opt.step()

        latent_stack.push(z)  # expect: TEN501
        pixel_stack.push(next_obs)  # ok
        dataset.append((z, action, reward))  # expect: TEN501
        pixel_dataset.append((next_obs, action, reward))  # ok
        recon_losses.append(loss.detach())  # ok
        if done:
            break
    print(f"episode {episode}: recon {torch.stack(recon_losses[-20:]).mean().item():.4f}")

print("stacked latent state:", latent_stack.state().shape, "dataset size:", len(dataset))
print("mean latent norm:", torch.stack([z.norm() for z, _, _ in dataset]).mean().item())
print("mean reward:", sum(r for _, _, r in pixel_dataset) / len(pixel_dataset))
