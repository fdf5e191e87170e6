"""Double DQN with Polyak-averaged target network."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .buffers import FrameStack


class QNetwork(nn.Module):
    def __init__(self, in_channels, num_actions, feature_dim=64 * 7 * 7):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_channels, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Linear(feature_dim, 512), nn.ReLU(), nn.Linear(512, num_actions))

    def forward(self, x):
        return self.head(self.features(x))


class DQNAgent:
    def __init__(self, make_net, num_envs, num_actions, frame_shape, stack=4, history=8,
                 lr=1e-4, gamma=0.99, tau=0.005, device="cuda"):
        c, h, w = frame_shape
        self.num_actions = num_actions
        self.gamma = gamma
        self.tau = tau
        self.online = make_net().to(device)
        self.target = make_net().to(device)
        self.target.load_state_dict(self.online.state_dict())  # ok
        self.target.requires_grad_(False)
        self.optimizer = torch.optim.Adam(self.online.parameters(), lr=lr, eps=1.5e-4)
        self._pairs = list(zip(self.target.parameters(), self.online.parameters()))  # ok
        self.frames = FrameStack(num_envs, stack, c, h, w, device=device)
        self.last_actions = torch.zeros(num_envs, history, dtype=torch.long, device=device)

    def observe_reset(self, obs, mask=None):
        self.frames.reset(obs, mask)
        if mask is None:
            self.last_actions.zero_()
        else:
            self.last_actions[mask] = 0

    @torch.no_grad()
    def act(self, obs, epsilon):
        state = self.frames.step(obs)
        greedy = self.online(state.float() / 255.0).argmax(dim=1)
        random_actions = torch.randint_like(greedy, self.num_actions)
        explore = torch.rand(greedy.shape, device=greedy.device) < epsilon
        actions = torch.where(explore, random_actions, greedy)
        self.last_actions[:, :-1] = self.last_actions[:, 1:].clone()  # ok
        self.last_actions[:, -1] = actions
        return actions

    def learn(self, batch):
        s, a, r, s2, done = batch
        q = self.online(s.float() / 255.0).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            a2 = self.online(s2.float() / 255.0).argmax(dim=1, keepdim=True)
            q2 = self.target(s2.float() / 255.0).gather(1, a2).squeeze(1)
            target = r + self.gamma * (1.0 - done.float()) * q2
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.optimizer.step()
        self._soft_update()
        return loss.item()

    @torch.no_grad()
    def _soft_update(self):
        for tp, op in self._pairs:
            tp.lerp_(op, self.tau)

    def hard_update(self):
        self.target.load_state_dict(self.online.state_dict())  # ok

    def save(self, path):
        torch.save(
            {
                "online": self.online.state_dict(),  # ok
                "target": self.target.state_dict(),
                "optim": self.optimizer.state_dict(),
            },
            path,
        )
