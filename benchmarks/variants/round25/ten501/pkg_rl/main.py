import torch
import torch.nn.functional as F

from .agent import Agent
from .buffer import EpisodeStats, Rollout


def env_reward(obs, action):
    return float(action.item() == int(obs.sum() > 0))


def discounted(rewards, gamma=0.95):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    return torch.tensor(out[::-1])


def main():
    torch.manual_seed(0)
    agent = Agent()
    opt = torch.optim.Adam(agent.parameters(), lr=3e-3)
    rollout = Rollout()
    stats, stats_ok = EpisodeStats(), EpisodeStats()
    for update in range(6):
        for t in range(12):
            obs = torch.randn(4)
            action, log_prob, value = agent.act(obs)
            rollout.push(log_prob, value, env_reward(obs, action))  # ok
            stats.add(value=value)  # expect: TEN501
            stats_ok.add(value=value.item())  # ok
        returns = discounted(rollout.rewards)
        values = torch.stack(rollout.values)
        adv = returns - values
        loss = -(torch.stack(rollout.log_probs) * adv.detach()).mean() + 0.5 * adv.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        stats.add(log_prob=torch.stack(rollout.log_probs).sum())  # expect: TEN501
        stats_ok.add(ret=returns[0])  # ok
        rollout.clear()
        print(update, round(loss.item(), 4), round(returns[0].item(), 3))
    print("values logged", len(stats.values), "mean", round(sum(stats_ok.values) / len(stats_ok.values), 4))


if __name__ == "__main__":
    main()
