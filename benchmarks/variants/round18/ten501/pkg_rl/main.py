"""Entry point: python -m pkg_rl.main"""
import torch

from pkg_rl.agent import A2CAgent
from pkg_rl.stats import STATS


class CoinEnv:
    """Reward 1 when the action matches the sign of the first observation."""

    def __init__(self, horizon=5):
        self.horizon = horizon

    def reset(self):
        self.t = 0
        self.obs = torch.randn(3)
        return self.obs

    def step(self, action):
        reward = 1.0 if action == int(self.obs[0] > 0) else 0.0
        self.t += 1
        self.obs = torch.randn(3)
        return self.obs, reward, self.t >= self.horizon


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    env = CoinEnv()
    agent = A2CAgent()
    episode_returns = []
    train_log = []
    value_errors = []
    for episode in range(4):
        obs, done, ep_ret = env.reset(), False, 0.0
        while not done:
            action, log_prob, value, entropy = agent.act(obs)
            obs, reward, done = env.step(action)
            agent.remember(log_prob, value, reward, entropy)
            ep_ret += reward
        value_errors.append(agent.learn())  # ok
        episode_returns.append(ep_ret)  # ok
        train_log.append(agent.last_loss)  # expect: TEN501
    print("returns:", episode_returns, "updates:", agent.updates,
          "mean return stat:", round(sum(STATS["return"]) / len(STATS["return"]), 3))


if __name__ == "__main__":
    main()
