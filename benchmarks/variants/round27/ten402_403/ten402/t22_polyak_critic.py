"""Soft (Polyak) target update for a critic, written by hand."""
import torch
import torch.nn as nn

torch.manual_seed(0)

TAU, GAMMA = 0.1, 0.95


def make_critic():
    return nn.Sequential(nn.Linear(3 + 1, 16), nn.ReLU(), nn.Linear(16, 1))


def init_target(critic, safe):
    if safe:
        return {k: v.to(torch.float64) for k, v in critic.state_dict().items()}  # ok
    return {k: v.to(v.dtype) for k, v in critic.state_dict().items()}  # expect: TEN402


@torch.no_grad()
def soft_update(target, critic):
    for k, v in critic.state_dict().items():
        target[k].mul_(1 - TAU).add_(v.to(target[k].dtype), alpha=TAU)


def target_value(target, s, a):
    h = torch.relu(torch.cat([s, a], 1) @ target["0.weight"].float().t() + target["0.bias"].float())
    return h @ target["2.weight"].float().t() + target["2.bias"].float()


for safe in (False, True):
    torch.manual_seed(0)
    critic = make_critic()
    target = init_target(critic, safe)
    opt = torch.optim.Adam(critic.parameters(), lr=0.01)
    for step in range(60):
        s, a = torch.randn(32, 3), torch.rand(32, 1)
        r = -(s ** 2).sum(1, keepdim=True) + a
        s2 = s + 0.1 * torch.randn_like(s)
        with torch.no_grad():
            y = r + GAMMA * target_value(target, s2, torch.rand(32, 1))
        loss = nn.functional.mse_loss(critic(torch.cat([s, a], 1)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        soft_update(target, critic)
    gap = sum((target[k].float() - v).abs().sum() for k, v in critic.state_dict().items()).item()
    print(f"safe={safe} final critic loss {loss.item():.5f} |target-critic| {gap:.5f}")
