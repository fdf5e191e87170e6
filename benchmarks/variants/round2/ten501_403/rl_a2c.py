"""Actor-critic on a toy environment: rollout storage and logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ToyEnv:
    def __init__(self, obs_dim=4, horizon=5):
        self.obs_dim, self.horizon, self.t = obs_dim, horizon, 0

    def reset(self):
        self.t = 0
        return torch.randn(self.obs_dim)

    def step(self, action):
        self.t += 1
        return torch.randn(self.obs_dim), float(action == 1), self.t >= self.horizon


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def a2c(n_updates=4, gamma=0.99):
    env, ac = ToyEnv(), ActorCritic()
    opt = torch.optim.RMSprop(ac.parameters(), lr=7e-4)
    entropy_log = 0.0
    value_loss_hist = []
    policy_loss_hist = []
    episode_values = []
    for update in range(n_updates):
        log_probs, values, rewards, entropies = [], [], [], []
        obs, done = env.reset(), False
        while not done:
            dist, value = ac(obs)
            action = dist.sample()
            obs, reward, done = env.step(action.item())
            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(reward)  # ok
        R, returns = 0.0, []
        for r in reversed(rewards):
            R = r + gamma * R
            returns.insert(0, R)  # ok
        returns = torch.tensor(returns)
        values_t = torch.stack(values)
        advantage = returns - values_t
        policy_loss = -(torch.stack(log_probs) * advantage.detach()).mean()
        value_loss = advantage.pow(2).mean()
        entropy = torch.stack(entropies).mean()
        loss = policy_loss + 0.5 * value_loss - 0.01 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()
        entropy_log += entropy  # expect: TEN501
        value_loss_hist.append(value_loss)  # expect: TEN501
        policy_loss_hist.append(policy_loss.item())  # ok
        episode_values.extend(values)  # expect: TEN501
    return entropy_log, value_loss_hist, episode_values


class ReinforceAgent:
    """Classic pytorch/examples style: saved log-probs live on the agent."""

    def __init__(self):
        self.policy = ActorCritic()
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        self.saved_log_probs = []
        self.rewards = []
        self.loss_trace = []

    def select_action(self, obs):
        dist, _ = self.policy(obs)
        action = dist.sample()
        self.saved_log_probs.append(dist.log_prob(action))  # ok
        return action.item()

    def finish_episode(self, gamma=0.99):
        R, returns = 0.0, []
        for r in self.rewards[::-1]:
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-8)
        policy_loss = torch.stack([-lp * g for lp, g in zip(self.saved_log_probs, returns)]).sum()
        self.opt.zero_grad()
        policy_loss.backward()
        self.opt.step()
        del self.rewards[:]
        del self.saved_log_probs[:]
        return policy_loss

    def run(self, episodes=4):
        env = ToyEnv()
        for ep in range(episodes):
            obs, done = env.reset(), False
            while not done:
                obs, r, done = env.step(self.select_action(obs))
                self.rewards.append(r)  # ok
            pl = self.finish_episode()
            self.loss_trace.append(pl)  # expect: TEN501


if __name__ == "__main__":
    torch.manual_seed(0)
    e, vh, ev = a2c()
    print("entropy_log grad_fn:", e.grad_fn, "value_loss_hist[0]:", vh[0].grad_fn, "values:", ev[0].grad_fn, len(ev))
    ag = ReinforceAgent()
    ag.run()
    print("reinforce loss_trace:", ag.loss_trace[0].grad_fn)
