"""PPO update: the behaviour policy is frozen before several epochs of minibatch updates."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))

    def dist(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


def ppo_update(policy, opt, obs, act, adv, frozen="params", clip=0.2, epochs=4):
    if frozen == "params":
        old_params = {n: p.detach() for n, p in policy.named_parameters()}  # expect: TEN402
    else:
        with torch.no_grad():
            old_logp_fixed = policy.dist(obs).log_prob(act).detach()  # ok
    ratios = []
    for _ in range(epochs):
        if frozen == "params":
            with torch.no_grad():
                old_logits = functional_call(policy.net, {k[4:]: v for k, v in old_params.items()}, (obs,))
                old_logp = torch.distributions.Categorical(logits=old_logits).log_prob(act)
        else:
            old_logp = old_logp_fixed
        ratio = torch.exp(policy.dist(obs).log_prob(act) - old_logp)
        loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ratios.append((ratio - 1).abs().mean().item())
    return ratios


if __name__ == "__main__":
    obs = torch.randn(64, 3)
    act = torch.randint(0, 4, (64,))
    adv = torch.randn(64)
    for frozen in ("params", "logp"):
        torch.manual_seed(2)
        policy = Policy()
        opt = torch.optim.Adam(policy.parameters(), lr=0.05)
        r = []
        for _ in range(2):
            r += ppo_update(policy, opt, obs, act, adv, frozen=frozen)
        print(frozen, [round(v, 6) for v in r])
