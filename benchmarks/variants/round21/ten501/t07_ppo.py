"""CleanRL-flavoured PPO with preallocated rollout storage and a metrics dict."""
import math
import random

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)
np.random.seed(0)


class PointEnv:
    """1-D point that must be pushed to the origin; 3 discrete actions."""

    def __init__(self, max_steps=25):
        self.max_steps = max_steps

    def reset(self):
        self.x = random.uniform(-1, 1)
        self.v = 0.0
        self.t = 0
        return np.array([self.x, self.v], dtype=np.float32)

    def step(self, a):
        self.v = 0.9 * self.v + 0.05 * (a - 1)
        self.x += self.v
        self.t += 1
        reward = -abs(self.x)
        done = self.t >= self.max_steps or abs(self.x) > 3
        return np.array([self.x, self.v], dtype=np.float32), reward, done


def layer_init(layer, std=math.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(2, 32)), nn.Tanh(), layer_init(nn.Linear(32, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(2, 32)), nn.Tanh(), layer_init(nn.Linear(32, 3), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def main():
    num_steps, num_updates, update_epochs, minibatch_size = 64, 6, 3, 16
    gamma, gae_lambda, clip_coef = 0.99, 0.95, 0.2
    env = PointEnv()
    agent = Agent()
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-3, eps=1e-5)

    obs = torch.zeros((num_steps, 2))
    actions = torch.zeros(num_steps)
    logprobs = torch.zeros(num_steps)
    rewards = torch.zeros(num_steps)
    dones = torch.zeros(num_steps)
    values = torch.zeros(num_steps)

    metrics = {"pg_loss": [], "v_loss": [], "approx_kl": [], "clipfrac": [], "entropy": []}
    episode_returns = []
    ep_ret = 0.0
    next_obs = torch.tensor(env.reset())
    next_done = torch.zeros(())

    for update in range(num_updates):
        for step in range(num_steps):
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()  # ok
            actions[step] = action
            logprobs[step] = logprob  # ok
            o, r, d = env.step(action.item())
            rewards[step] = r
            ep_ret += r
            if d:
                episode_returns.append(ep_ret)
                ep_ret = 0.0
                o = env.reset()
            next_obs, next_done = torch.tensor(o), torch.tensor(float(d))

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(num_steps)):
                nextnonterminal = 1.0 - (next_done if t == num_steps - 1 else dones[t + 1])
                nextvalues = next_value if t == num_steps - 1 else values[t + 1]
                delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam  # ok
            returns = advantages + values

        b_inds = np.arange(num_steps)
        for epoch in range(update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, num_steps, minibatch_size):
                mb = b_inds[start:start + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(obs[mb], actions.long()[mb])
                logratio = newlogprob - logprobs[mb]
                ratio = logratio.exp()
                approx_kl = ((ratio - 1) - logratio).mean()
                mb_adv = advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio, -mb_adv * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - returns[mb]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - 0.01 * entropy_loss + v_loss * 0.5

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

                metrics["pg_loss"].append(pg_loss)  # expect: TEN501
                metrics["v_loss"].append(v_loss.item())  # ok
                metrics["approx_kl"].append(approx_kl)  # expect: TEN501
                metrics["clipfrac"].append(((ratio - 1.0).abs() > clip_coef).float().mean().item())  # ok
                metrics["entropy"] += [entropy_loss.detach()]  # ok

        print(f"update {update}: pg {metrics['pg_loss'][-1].item():.4f} v {metrics['v_loss'][-1]:.4f} "
              f"kl {metrics['approx_kl'][-1].item():.5f}")
    print("episodes:", len(episode_returns), "mean return:", round(float(np.mean(episode_returns)), 3))
    print("mean clipfrac:", float(np.mean(metrics["clipfrac"])), "entropy:", torch.stack(metrics["entropy"]).mean().item())


if __name__ == "__main__":
    main()
