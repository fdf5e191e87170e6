import random

import torch

from .agent import DQNAgent
from .env import GridLine


def run(store_scalar_q, episodes=5):
    random.seed(0)
    torch.manual_seed(0)
    env = GridLine()
    agent = DQNAgent(6, 2, store_scalar_q)
    returns = []
    q_first = []
    q_first_f = []
    for ep in range(episodes):
        s = env.reset()
        done, ret, t = False, 0.0, 0
        while not done:
            a, q_sa = agent.act(s)
            if t == 0:
                q_first.append(q_sa)  # expect: TEN501
                q_first_f.append(round(q_sa.item(), 4))  # ok
            s2, r, done = env.step(a)
            agent.observe(s, a, r, s2, done, q_sa)
            agent.learn()
            s, ret, t = s2, ret + r, t + 1
        agent.sync()
        returns.append(ret)  # ok
    return returns, q_first_f, len(agent.td_errors)


if __name__ == "__main__":
    for scalar in (False, True):
        print("scalar_q" if scalar else "tensor_q", run(scalar))
