"""REINFORCE worker with a get/set weights API (as used by the rollout pool)."""
import copy

import torch
import torch.nn as nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.Tanh(), nn.Linear(128, n_act))

    def forward(self, obs):
        return Categorical(logits=self.net(obs))


class Worker:
    def __init__(self, env, obs_dim, n_act, lr=1e-2):
        self.env = env
        self.policy = Policy(obs_dim, n_act)
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=lr)

    def get_weights(self):
        return self.policy.state_dict()  # either

    def get_weights_copy(self):
        return copy.deepcopy(self.policy.state_dict())  # ok

    def set_weights(self, weights):
        self.policy.load_state_dict(weights)

    def episode(self):
        obs, _ = self.env.reset()
        logps, rewards, done = [], [], False
        while not done:
            dist = self.policy(torch.as_tensor(obs, dtype=torch.float32))
            a = dist.sample()
            logps.append(dist.log_prob(a))
            obs, r, term, trunc, _ = self.env.step(a.item())
            rewards.append(r)
            done = term or trunc
        return torch.stack(logps), rewards

    def update(self, gamma=0.99):
        logps, rewards = self.episode()
        ret, returns = 0.0, []
        for r in reversed(rewards):
            ret = r + gamma * ret
            returns.insert(0, ret)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        loss = -(logps * returns).sum()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return sum(rewards)


def train(worker, iterations=2000, patience=200):
    best_return = float("-inf")
    best = worker.get_weights_copy()  # ok
    since_best = 0
    for it in range(iterations):
        ep_return = worker.update()
        if ep_return > best_return:
            best_return, since_best = ep_return, 0
            best = worker.get_weights()  # expect: TEN402
        else:
            since_best += 1
        if since_best > patience:
            break
    worker.set_weights(best)
    torch.save(worker.get_weights(), "policy_best.pt")  # ok
    return best_return
