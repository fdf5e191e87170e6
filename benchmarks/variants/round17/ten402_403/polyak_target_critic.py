"""TD3-flavoured critic with a Polyak-averaged target, three ways of holding the target."""
import copy

import torch
from torch import nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

TAU, GAMMA = 0.05, 0.95


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(3 + 1, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.f(torch.cat([s, a], -1))


def transitions(n, g):
    s = torch.randn(n, 3, generator=g)
    a = torch.rand(n, 1, generator=g) * 2 - 1
    r = -(s.pow(2).sum(1, keepdim=True)) - 0.1 * a.pow(2)
    s2 = (s + 0.3 * a).clamp(-2, 2)
    return s, a, r, s2


def train(target_kind, steps=60):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    critic = Critic()
    opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    names = [n for n, _ in critic.named_parameters()]
    if target_kind == "list":
        target_params = [p for p in critic.parameters()]  # expect: TEN402
    elif target_kind == "flat":
        target_params = [p.reshape(-1) for p in critic.parameters()]  # expect: TEN402
    else:
        target_net = copy.deepcopy(critic).requires_grad_(False)  # ok
        target_net.load_state_dict(critic.state_dict())  # ok
    flat_start = torch.cat([p.reshape(-1) for p in critic.parameters()])  # ok
    for _ in range(steps):
        s, a, r, s2 = transitions(64, g)
        with torch.no_grad():
            a2 = torch.zeros_like(a)
            if target_kind == "module":
                q_next = target_net(s2, a2)
            else:
                shapes = [p.shape for p in critic.parameters()]
                params = {n: t.view(sh) for n, t, sh in zip(names, target_params, shapes)}
                q_next = functional_call(critic, params, (s2, a2))
            y = r + GAMMA * q_next
        loss = nn.functional.mse_loss(critic(s, a), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            if target_kind == "module":
                for tp, p in zip(target_net.parameters(), critic.parameters()):
                    tp.lerp_(p, TAU)  # ok
            else:
                for tp, p in zip(target_params, critic.parameters()):
                    tp.mul_(1 - TAU).add_(p.reshape(tp.shape), alpha=TAU)
    moved = (torch.cat([p.reshape(-1) for p in critic.parameters()]) - flat_start).norm().item()
    return loss.item(), moved


if __name__ == "__main__":
    for kind in ("list", "flat", "module"):
        print(kind, [round(v, 4) for v in train(kind)])
