import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

obs_dim, act_dim, tau, gamma = 3, 1, 0.05, 0.95
actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())
critic = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))
actor_targ = copy.deepcopy(actor)
critic_targ = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(), nn.Linear(32, 1))
critic_targ.load_state_dict(critic.state_dict())
targ_params = list(critic_targ.parameters())
critic_start = list(critic.parameters())  # expect: TEN402
opt_a = torch.optim.Adam(actor.parameters(), lr=1e-3)
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3)

S = torch.randn(512, obs_dim)
A = torch.rand(512, act_dim) * 2 - 1
R = -(S[:, :1] ** 2) - 0.1 * A ** 2
S2 = S + 0.1 * A
actor_start = [p.detach().clone() for p in actor.parameters()]  # ok

for it in range(60):
    idx = torch.randint(0, 512, (64,))
    s, a, r, s2 = S[idx], A[idx], R[idx], S2[idx]
    with torch.no_grad():
        q_t = critic_targ(torch.cat([s2, actor_targ(s2)], 1))
        y = r + gamma * q_t
    lc = nn.functional.mse_loss(critic(torch.cat([s, a], 1)), y)
    opt_c.zero_grad()
    lc.backward()
    opt_c.step()
    la = -critic(torch.cat([s, actor(s)], 1)).mean()
    opt_a.zero_grad()
    la.backward()
    opt_a.step()
    with torch.no_grad():
        for pt, p in zip(targ_params, critic.parameters()):
            pt.mul_(1 - tau).add_(tau * p)
        for pt, p in zip(actor_targ.parameters(), actor.parameters()):
            pt.mul_(1 - tau).add_(tau * p)

with torch.no_grad():
    gap = sum((pt - p).norm() for pt, p in zip(critic_targ.parameters(), critic.parameters())).item()
    moved = sum((p - q).norm() for p, q in zip(critic.parameters(), critic_start)).item()
    moved_a = sum((p - q).norm() for p, q in zip(actor.parameters(), actor_start)).item()
print(f"critic loss {lc.item():.6f} actor loss {la.item():.6f}")
print(f"target-online gap {gap:.6f}")
print(f"critic moved since start {moved:.6f}")
print(f"actor moved since start {moved_a:.6f}")
