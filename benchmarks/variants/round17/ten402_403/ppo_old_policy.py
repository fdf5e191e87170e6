"""PPO clipped objective over several epochs on one rollout."""
import copy

import torch
from torch import nn
from torch.distributions import Categorical
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

CLIP = 0.2


def rollout(n=128):
    g = torch.Generator().manual_seed(3)
    obs = torch.randn(n, 4, generator=g)
    act = torch.randint(0, 3, (n,), generator=g)
    adv = obs[:, 0] * (act == 1).float() - 0.2 * obs[:, 1]
    return obs, act, adv


def ppo_update(policy, mode, epochs=6):
    opt = torch.optim.Adam(policy.parameters(), lr=2e-2)
    obs, act, adv = rollout()
    if mode == "dict-copy":
        old_params = policy.state_dict().copy()  # expect: TEN402
    else:
        old_policy = copy.deepcopy(policy)  # ok
    clip_fracs = []
    for _ in range(epochs):
        with torch.no_grad():
            if mode == "dict-copy":
                old_logits = functional_call(policy, old_params, (obs,))
            else:
                old_logits = old_policy(obs)
            old_logp = Categorical(logits=old_logits).log_prob(act)  # ok
        logp = Categorical(logits=policy(obs)).log_prob(act)
        ratio = (logp - old_logp).exp()
        loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        clip_fracs.append(((ratio - 1).abs() > CLIP).float().mean().item())
    return clip_fracs


if __name__ == "__main__":
    for mode in ("dict-copy", "deepcopy"):
        torch.manual_seed(1)
        pol = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 3))
        print(mode, "clip fractions", [round(c, 3) for c in ppo_update(pol, mode)])
