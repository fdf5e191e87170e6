"""WGAN-GP: several critic updates per generator update with a gradient penalty."""
import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, dim=2, hidden=48):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden),
                               nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    mixed = (eps * real + (1 - eps) * fake).requires_grad_(True)
    scores = critic(mixed)
    grads, = torch.autograd.grad(scores.sum(), mixed, create_graph=True)
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def real_batch(n):
    return torch.randn(n, 2) * torch.tensor([0.5, 2.0]) + torch.tensor([1.0, -1.0])


def train(gen_iters=4, n_critic=3, batch=32, lam=10.0):
    torch.manual_seed(0)
    gen = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    critic = Critic()
    opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
    penalties, wasserstein, gen_costs = [], [], []
    critic_iters_done = 0
    for g_it in range(gen_iters):
        for _ in range(n_critic):
            real = real_batch(batch)
            with torch.no_grad():
                fake = gen(torch.randn(batch, 4))
            real_score = critic(real).mean()
            fake_score = critic(fake).mean()
            gp = gradient_penalty(critic, real, fake)
            c_loss = fake_score - real_score + lam * gp
            opt_c.zero_grad()
            c_loss.backward()
            opt_c.step()
            penalties.append(gp)  # expect: TEN501
            wasserstein.append((real_score - fake_score).item())  # ok
            critic_iters_done += 1  # ok

        fake_score_g = critic(gen(torch.randn(batch, 4))).mean()
        opt_g.zero_grad()
        (-fake_score_g).backward()
        opt_g.step()
        gen_costs.append(-fake_score_g)  # expect: TEN501
        print(f"gen iter {g_it}: W={wasserstein[-1]:.4f} gp={penalties[-1].item():.4f}")
    print("critic iters", critic_iters_done, "last G cost", gen_costs[-1].item())


if __name__ == "__main__":
    train()
