import torch

from . import stats as stats_mod
from .agent import Agent
from .buffer import EpisodeBuffer
from .stats import RunningStats

torch.manual_seed(0)
torch.set_num_threads(1)


def reward_fn(obs, action):
    return 1.0 if action == int(obs.argmax()) % 3 else -0.2


def main():
    agent = Agent()
    opt = torch.optim.Adam(agent.parameters(), lr=5e-3)
    buf = EpisodeBuffer()
    loss_stats = RunningStats()
    loss_stats_ok = RunningStats()
    reward_stats = RunningStats()
    episode_log_ok = []
    value_trace = []
    for episode in range(12):
        for t in range(6):
            obs = torch.randn(4)
            action, log_prob, value, entropy = agent.act(obs)
            r = reward_fn(obs, action)
            buf.add(log_prob, value, entropy, r)  # ok
            reward_stats.push(r)  # ok
            value_trace.append(value)  # expect: TEN501
        info = agent.learn(buf, opt)
        buf.clear()
        loss_stats.push(info["loss"])  # expect: TEN501
        loss_stats_ok.push(info["loss"].item())  # ok
        stats_mod.EPISODE_LOG.append(info)  # expect: TEN501
        episode_log_ok.append({k: v.item() for k, v in info.items()})  # ok
        stats_mod.EPISODE_LOG.append({"baseline": agent.baseline})  # ok
        if episode == 0:
            first_critic = info["critic"].item()  # ok
    print("loss", round(loss_stats.mean, 4), round(loss_stats_ok.mean, 4), "reward", round(reward_stats.mean, 4))
    print("log", len(stats_mod.EPISODE_LOG), round(episode_log_ok[-1]["entropy"], 4), round(first_critic, 4))
    print("values", len(value_trace), round(float(torch.stack(value_trace).mean()), 4))


if __name__ == "__main__":
    main()
