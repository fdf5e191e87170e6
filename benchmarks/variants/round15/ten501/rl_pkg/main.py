"""Entry point: python -m rl_pkg.main"""
import torch

from .agent import A2CAgent
from .stats import EpisodeLogger, RunningStats
from .storage import EpisodeStorage


def run(num_episodes=5, horizon=8):
    torch.manual_seed(0)
    agent = A2CAgent()
    storage = EpisodeStorage()
    loss_stats = RunningStats()
    return_stats = RunningStats()
    ep_logger = EpisodeLogger()
    infos = []
    for episode in range(num_episodes):
        obs = torch.randn(4)
        ep_return = 0.0
        for t in range(horizon):
            action, log_prob, value, entropy = agent.act(obs)
            reward = 1.0 if action == int(obs[1] > 0) else -0.1
            storage.add(log_prob, value, reward, entropy)  # ok
            ep_return += reward  # ok
            obs = torch.randn(4)
        loss, info = agent.update(storage)
        storage.clear()
        loss_stats.push(loss)  # expect: TEN501
        return_stats.push(ep_return)  # ok
        ep_logger.record(episode, loss=loss, ret=ep_return)  # ok
        infos.append(info)  # ok
    print(ep_logger.summary(), float(loss_stats.mean()), len(agent.entropy_hist))
    return infos


if __name__ == "__main__":
    run()
