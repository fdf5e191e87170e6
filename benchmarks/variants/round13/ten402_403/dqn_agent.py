"""DQN pieces: channel-last frame stacker, replay memory and a lagged target network."""
import random

import torch
from torch import nn
from torch.func import functional_call
import torch.nn.functional as F


class FrameStacker:
    """Keeps the last k grayscale frames, newest at channel 0, layout (H, W, k)."""

    def __init__(self, h=6, w=6, k=4):
        self.frames = torch.zeros(h, w, k)

    def reset(self, obs):
        self.frames[:] = obs.unsqueeze(-1)  # ok
        return self.frames.permute(2, 0, 1).clone()

    def push(self, obs):
        self.frames[..., 1:] = self.frames[..., :-1]  # expect: TEN403
        self.frames[..., 0] = obs  # ok
        return self.frames.permute(2, 0, 1).clone()


class Replay:
    def __init__(self, capacity=500):
        self.capacity = capacity
        self.items = []

    def add(self, *transition):
        self.items.append(transition)
        if len(self.items) > self.capacity:
            self.items[:-1] = self.items[1:]  # ok
            self.items.pop()

    def sample(self, n):
        batch = random.sample(self.items, n)
        return [torch.stack(t) if torch.is_tensor(t[0]) else torch.tensor(t) for t in zip(*batch)]


class Agent:
    def __init__(self, n_actions=3, k=4, gamma=0.95, sync_every=10):
        self.policy = nn.Sequential(nn.Flatten(), nn.Linear(k * 36, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target = nn.Sequential(nn.Flatten(), nn.Linear(k * 36, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target.load_state_dict(self.policy.state_dict())  # ok
        self.sync()
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=1e-3)
        self.gamma = gamma
        self.sync_every = sync_every
        self.updates = 0

    def sync(self):
        self.target_state = self.policy.state_dict()  # expect: TEN402

    def learn(self, s, a, r, s2, done):
        q = self.policy(s).gather(1, a.view(-1, 1)).squeeze(1)
        with torch.no_grad():
            q_next = functional_call(self.policy, self.target_state, (s2,)).max(1).values
            target = r + self.gamma * (1 - done) * q_next
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.updates += 1
        if self.updates % self.sync_every == 0:
            self.sync()
        return loss.item()


def play(steps=60, seed=0):
    random.seed(seed)
    torch.manual_seed(seed)
    stacker, memory, agent = FrameStacker(), Replay(), Agent()
    obs = torch.rand(6, 6)
    state = stacker.reset(obs)
    for t in range(steps):
        action = random.randrange(3)
        obs = torch.roll(obs, shifts=action - 1, dims=1)  # ok
        next_state = stacker.push(obs)
        reward = float(obs[:, 0].mean() > 0.5)
        memory.add(state, torch.tensor(action), torch.tensor(reward), next_state, torch.tensor(0.0))
        state = next_state
        if len(memory.items) >= 16:
            agent.learn(*memory.sample(16))
    return stacker, agent


if __name__ == "__main__":
    stacker, agent = play()
    print("updates", agent.updates)
