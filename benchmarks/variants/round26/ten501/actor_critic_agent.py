"""One-step actor-critic agent with an episode buffer and value diagnostics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.body = nn.Linear(obs_dim, 32)
        self.pi = nn.Linear(32, n_actions)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = torch.relu(self.body(obs))
        return self.pi(h), self.v(h).squeeze(-1)


class Agent:
    def __init__(self):
        self.net = ActorCritic(4, 2)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=3e-3)
        self.log_probs, self.values, self.rewards = [], [], []
        self.value_trace = []
        self.value_trace_f = []

    def act(self, obs):
        logits, value = self.net(obs)
        dist = torch.distributions.Categorical(logits=logits)
        a = dist.sample()
        return a.item(), dist.log_prob(a), value

    def remember(self, log_prob, value, reward):
        self.log_probs.append(log_prob)
        self.values.append(value)
        self.rewards.append(reward)

    def track(self, value):
        self.value_trace.append(value)

    def track_scalar(self, value):
        self.value_trace_f.append(float(value))

    def finish_episode(self, gamma=0.9):
        R, rets = 0.0, []
        for r in reversed(self.rewards):
            R = r + gamma * R
            rets.insert(0, R)
        rets = torch.tensor(rets)
        values = torch.stack(self.values)
        adv = rets - values.detach()
        loss = -(torch.stack(self.log_probs) * adv).mean() + F.mse_loss(values, rets)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.log_probs, self.values, self.rewards = [], [], []
        return loss.item()


agent = Agent()
for ep in range(5):
    obs = torch.randn(4)
    for t in range(6):
        action, lp, value = agent.act(obs)
        reward = 1.0 if action == int(obs[0] > 0) else 0.0
        agent.remember(lp, value, reward)  # ok
        agent.track(value)  # expect: TEN501
        agent.track_scalar(value)  # ok
        obs = torch.randn(4)
    print(f"ep {ep} loss {agent.finish_episode():.4f} mean V {sum(agent.value_trace_f) / len(agent.value_trace_f):.4f}")
