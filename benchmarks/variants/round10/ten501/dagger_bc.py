"""DAgger for continuous control: aggregate expert labels on learner-visited states."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLPPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


def fit_policy(policy, optimizer, obs, acts, epochs, batch_size, fit_log, dagger_iter):
    loader = DataLoader(TensorDataset(obs, acts), batch_size=batch_size, shuffle=True)
    key = f"iter{dagger_iter}"
    for _ in range(epochs):
        for ob, ac in loader:
            loss = F.mse_loss(policy(ob), ac)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            fit_log[key] = fit_log.get(key, 0.0) + loss  # expect: TEN501
    return fit_log


def dagger(env, expert, policy, n_iters=10, rollout_len=1000, beta0=1.0, epochs=20, batch_size=256, seed=0):
    random.seed(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    data_obs, data_act = [], []
    fit_log = {}
    beta_log = []
    disagreement_log = []
    for it in range(n_iters):
        beta = beta0 * (0.5 ** it)
        beta_log.append(beta)  # ok
        obs = env.reset()
        learner_actions, expert_actions = [], []
        for t in range(rollout_len):
            obs_t = torch.as_tensor(obs, dtype=torch.float32)
            a_exp = torch.as_tensor(expert.act(obs), dtype=torch.float32)
            a_pol = policy(obs_t.unsqueeze(0)).squeeze(0)
            learner_actions.append(a_pol)  # expect: TEN501
            expert_actions.append(a_exp)  # ok
            data_obs.append(obs_t)  # ok
            data_act.append(a_exp)

            a = a_exp.numpy() if random.random() < beta else a_pol.detach().numpy()
            obs, _, done, _ = env.step(a)
            if done:
                obs = env.reset()

        disagreement = (torch.stack(learner_actions) - torch.stack(expert_actions)).norm(dim=-1).mean().item()
        disagreement_log.append(disagreement)
        fit_policy(policy, optimizer, torch.stack(data_obs), torch.stack(data_act), epochs, batch_size,
                   fit_log, it)
        print(f"DAgger iter {it}: beta {beta:.3f} |D|={len(data_obs)} disagreement {disagreement:.4f} "
              f"fit loss {float(fit_log[f'iter{it}']):.2f}")
    return policy, {"beta": beta_log, "disagreement": disagreement_log}


def evaluate(env, policy, episodes=10):
    returns = []
    for _ in range(episodes):
        obs, done, ret = env.reset(), False, 0.0
        while not done:
            with torch.no_grad():
                a = policy(torch.as_tensor(obs, dtype=torch.float32)).numpy()
            obs, r, done, _ = env.step(a)
            ret += r
        returns.append(ret)
    return float(np.mean(returns)), float(np.std(returns))
