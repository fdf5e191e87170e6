"""Entry point: python -m pkg_b.main"""
import random

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

from .agent import DQNAgent  # noqa: E402
from .stats import EpisodeStats, record_td, td_summary  # noqa: E402


class LineWorld:
    """Positions 0..6, start in the middle, +1 at the right end, -1 at the left end."""

    def reset(self):
        self.pos, self.t = 3, 0
        return self.obs()

    def obs(self):
        o = torch.zeros(7)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        reward = 1.0 if self.pos == 6 else (-1.0 if self.pos == 0 else -0.01)
        done = self.pos in (0, 6) or self.t >= 15
        return self.obs(), reward, done


def main():
    env = LineWorld()
    agent = DQNAgent(7, 2)
    q_means, losses = [], []
    for episode in range(14):
        obs, done = env.reset(), False
        ep = EpisodeStats()
        while not done:
            action, q_values = agent.act(obs)
            next_obs, reward, done = env.step(action)
            agent.buffer.push(obs, action, reward, next_obs, float(done))  # ok
            ep.record_step(reward, q_values.max())  # expect: TEN501
            info = agent.learn()
            if info is not None:
                record_td(info["td_error"])  # expect: TEN501
                losses.append(info["loss"])  # ok
                q_means.append(info["q_mean"])  # expect: TEN501
            obs = next_obs
        EpisodeStats.finish(ep)  # expect: TEN501
        agent.epsilon = max(0.05, agent.epsilon * 0.85)
    returns = [round(e.ret, 2) for e in EpisodeStats.archive]
    print("returns:", returns)
    print("mean loss:", sum(losses) / max(1, len(losses)), "mean td:", td_summary())
    print("mean q:", torch.stack(q_means).mean().item(),
          "first-episode max-q mean:", torch.stack(EpisodeStats.archive[0].q_values).mean().item())


if __name__ == "__main__":
    main()
