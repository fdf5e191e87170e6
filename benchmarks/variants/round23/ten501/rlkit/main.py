import torch

from .agent import ActorCritic
from .buffers import EpisodeStats, RolloutBuffer, log_values


def compute_returns(rewards, gamma=0.99):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.insert(0, g)
    return torch.tensor(out)


def main():
    torch.manual_seed(0)
    agent = ActorCritic()
    opt = torch.optim.Adam(agent.parameters(), lr=1e-3)
    rollout, diag, stats = RolloutBuffer(), RolloutBuffer(), EpisodeStats()
    value_trace, entropy_trace = [], []
    for update in range(3):
        rollout.clear()
        obs = torch.randn(4)
        for t in range(5):
            action, logp, value, ent = agent.act(obs)
            reward = float(action.item() == t % 2)
            rollout.add(logp, value, reward)  # ok
            diag.add(logp, value, reward)  # expect: TEN501
            entropy_trace.append(ent.detach())  # ok
            obs = torch.randn(4)
        returns = compute_returns(rollout.rewards)
        values = torch.stack(rollout.values)
        adv = returns - values.detach()
        loss = -(torch.stack(rollout.log_probs) * adv).mean() + 0.5 * (returns - values).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        stats.push(sum(rollout.rewards))  # ok
        log_values(value_trace, values)  # expect: TEN501
    print(len(diag.log_probs), stats.returns, len(value_trace), len(entropy_trace))


if __name__ == "__main__":
    main()
