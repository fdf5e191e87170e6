"""WGAN-GP training; gradient penalty via autograd.grad, scalar-only logging."""
import torch
import torch.nn as nn


def gradient_penalty(critic, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    scores = critic(interp)
    grads = torch.autograd.grad(scores.sum(), interp, create_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


def train(G, D, steps=4, n_critic=3, lambda_gp=10.0):
    opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.0, 0.9))
    opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.0, 0.9))
    log = {"w_dist": [], "gp": [], "g_loss": []}
    critic_terms = []
    for step in range(steps):
        for _ in range(n_critic):
            real = torch.randn(16, 2) + 3.0
            fake = G(torch.randn(16, 4)).detach()
            gp = gradient_penalty(D, real, fake)
            d_loss = D(fake).mean() - D(real).mean() + lambda_gp * gp
            critic_terms = [d_loss]  # either
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
            log["w_dist"].append((D(real).mean() - D(fake).mean()).item())  # ok
            log["gp"].append(gp.item())  # ok
        g_loss = -D(G(torch.randn(16, 4))).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        log["g_loss"].append(float(g_loss))  # ok
    return log, len(critic_terms)


if __name__ == "__main__":
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    D = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    log, _ = train(G, D)
    print({k: round(v[-1], 3) for k, v in log.items()})
