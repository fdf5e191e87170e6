"""PPO-clip learner on a toy environment: reach the origin on a line."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

from .buffer import RolloutBuffer
from .stats import StatsLogger


class LineWorld:
    def __init__(self, horizon=20):
        self.horizon = horizon

    def reset(self):
        self.pos, self.t = float(torch.randint(-5, 6, ()).item()), 0
        return torch.tensor([self.pos / 5.0, 0.0])

    def step(self, action):
        self.pos += (-1.0, 0.0, 1.0)[action]
        self.t += 1
        done = self.pos == 0 or self.t >= self.horizon
        reward = 1.0 if self.pos == 0 else -0.05
        return torch.tensor([self.pos / 5.0, self.t / self.horizon]), reward, done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 32), nn.Tanh())
        self.pi = nn.Linear(32, 3)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def main(iterations=4, horizon=64, epochs=3, clip=0.2):
    torch.manual_seed(0)
    env, net, buffer, stats = LineWorld(), ActorCritic(), RolloutBuffer(), StatsLogger()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    kl_trace, clip_fracs, ratio_samples, ep_returns = [], [], [], []
    obs, ep_ret = env.reset(), 0.0
    for it in range(iterations):
        buffer.clear()
        for _ in range(horizon):
            with torch.no_grad():
                dist, value = net(obs)
                action = dist.sample()
                logp = dist.log_prob(action)
            next_obs, reward, done = env.step(action.item())
            buffer.add(obs, action, logp, value, reward, done)  # ok
            ep_ret += reward  # ok
            obs = next_obs
            if done:
                ep_returns.append(ep_ret)  # ok
                obs, ep_ret = env.reset(), 0.0
        with torch.no_grad():
            last_value = net(obs)[1]
        b_obs, b_act, b_logp, adv, ret = buffer.compute_gae(last_value)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(epochs):
            dist, values = net(b_obs)
            new_logp = dist.log_prob(b_act)
            ratio = (new_logp - b_logp).exp()
            pg_loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
            v_loss = 0.5 * (values - ret).pow(2).mean()
            entropy = dist.entropy().mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * entropy
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            with torch.no_grad():
                approx_kl = (b_logp - new_logp).mean()
            stats.push(policy_loss=pg_loss.item(), value_loss=v_loss.item())  # ok
            stats.push(entropy=entropy)  # expect: TEN501
            kl_trace.append(approx_kl)  # ok
            clip_fracs.append(((ratio - 1).abs() > clip).float().mean().item())  # ok
            ratio_samples.append(ratio[:8])  # expect: TEN501
        print(f"iter {it}: " + ", ".join(f"{k}={v:.3f}" for k, v in stats.means().items()))
    print("episodes", len(ep_returns), "mean kl", torch.stack(kl_trace).mean().item())


if __name__ == "__main__":
    main()
