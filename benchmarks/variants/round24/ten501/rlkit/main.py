"""python -m rlkit.main"""
import random

import torch

from . import stats
from .agent import ActorCriticAgent


def main():
    torch.manual_seed(0)
    random.seed(0)
    agent = ActorCriticAgent()
    returns, last_losses, last_losses_ok = [], [], []
    for episode in range(6):
        obs, ep_return = torch.randn(4), 0.0
        for t in range(6):
            action = agent.act(obs)
            reward = torch.tensor(1.0 if action.item() == 0 else 0.0)
            agent.observe(obs, action, reward)  # ok
            ep_return += reward.item()
            obs = torch.randn(4)
        returns.append(ep_return)  # ok
        if len(agent.buffer) >= 8:
            loss = agent.update()
            if episode % 2 == 1:
                last_losses.append(loss)  # expect: TEN501
            last_losses_ok.append(loss.detach())  # ok
    print(returns, stats.dump()[0], len(last_losses))


if __name__ == "__main__":
    main()
