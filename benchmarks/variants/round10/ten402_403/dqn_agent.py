"""Double DQN agent with optional Polyak-averaged target network."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(obs_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_actions),
        )

    def forward(self, obs):
        return self.net(obs)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.99, lr=2.5e-4, tau=None, target_every=1000,
                 device="cuda"):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.tau = tau
        self.target_every = target_every
        self.q_net = QNetwork(obs_dim, n_actions).to(device)
        self.target_net = QNetwork(obs_dim, n_actions).to(device)
        self.target_net.load_state_dict(self.q_net.state_dict())  # ok
        self.target_net.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=lr, eps=1.5e-4)
        self.steps = 0
        self._last_weights = None

    @torch.no_grad()
    def act(self, obs, epsilon):
        if torch.rand(()) < epsilon:
            return torch.randint(self.n_actions, (obs.shape[0],), device=self.device)
        return self.q_net(obs).argmax(-1)

    @torch.no_grad()
    def _polyak(self, tau):
        for tp, p in zip(self.target_net.parameters(), self.q_net.parameters()):
            tp.mul_(1.0 - tau).add_(p, alpha=tau)

    def _update_norm(self):
        sq = 0.0
        for name, p in self.q_net.named_parameters():
            sq += (p.detach() - self._last_weights[name]).pow(2).sum().item()
        return math.sqrt(sq)

    def learn(self, batch):
        obs, actions, rewards, next_obs, dones = (t.to(self.device) for t in batch)
        self._last_weights = self.q_net.state_dict()  # expect: TEN402

        with torch.no_grad():
            next_a = self.q_net(next_obs).argmax(-1, keepdim=True)
            next_q = self.target_net(next_obs).gather(-1, next_a).squeeze(-1)
            target = rewards + self.gamma * (1.0 - dones.float()) * next_q
        q = self.q_net(obs).gather(-1, actions.long().unsqueeze(-1)).squeeze(-1)
        loss = F.smooth_l1_loss(q, target)

        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.q_net.parameters(), 10.0)
        self.optimizer.step()
        self.steps += 1

        if self.tau is not None:
            self._polyak(self.tau)
        elif self.steps % self.target_every == 0:
            self.target_net.load_state_dict(self.q_net.state_dict())  # ok

        return {"loss": loss.item(), "q_mean": q.mean().item(), "update_norm": self._update_norm()}
