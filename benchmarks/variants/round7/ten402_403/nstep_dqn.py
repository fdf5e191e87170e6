import copy

import torch
import torch.nn.functional as F


class NStepAccumulator:
    """Holds the last n transitions of one env and emits n-step transitions."""

    def __init__(self, n, gamma, obs_shape, device="cpu"):
        self.n = n
        self.gamma = gamma
        self.obs = torch.zeros((n + 1, *obs_shape), device=device)
        self.actions = torch.zeros(n, dtype=torch.long, device=device)
        self.rewards = torch.zeros(n, device=device)
        self.dones = torch.zeros(n, dtype=torch.bool, device=device)
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32, device=device)
        self.size = 0

    def _advance(self):
        next_obs = self.obs[1:]
        self.rewards[:-1] = self.rewards[1:]  # expect: TEN403
        self.obs[:-1] = next_obs  # expect: TEN403
        self.actions = torch.roll(self.actions, -1, dims=0)  # ok
        self.dones[:-1] = self.dones[1:].clone()  # ok
        self.size -= 1

    def append(self, obs, action, reward, next_obs, done):
        if self.size == self.n:
            self._advance()
        i = self.size
        self.obs[i] = obs
        self.actions[i] = action
        self.rewards[i] = reward
        self.dones[i] = done
        self.obs[i + 1] = next_obs
        self.size += 1
        if self.size < self.n and not done:
            return None
        return self._emit()

    def _emit(self):
        k = self.size
        ret = (self.rewards[:k] * self.discounts[:k]).sum()
        return (
            self.obs[0].clone(),
            int(self.actions[0]),
            float(ret),
            self.obs[k].clone(),
            bool(self.dones[k - 1]),
            self.gamma ** k,
        )

    def clear(self):
        self.size = 0


class DQNAgent:
    def __init__(self, q_net, lr=1e-4, target_every=2000, device="cuda"):
        self.online = q_net.to(device)
        self.target = copy.deepcopy(self.online).eval()
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr, eps=1.5e-4)
        self.target_every = target_every
        self.updates = 0

    def learn(self, batch):
        obs, act, ret, next_obs, done, disc = batch
        q = self.online(obs).gather(1, act.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            best = self.online(next_obs).argmax(1, keepdim=True)
            q_next = self.target(next_obs).gather(1, best).squeeze(1)
            y = ret + disc * (~done).float() * q_next
        loss = F.smooth_l1_loss(q, y)
        self.opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.opt.step()
        self.updates += 1
        if self.updates % self.target_every == 0:
            self.target.load_state_dict(self.online.state_dict())  # ok
        return loss.item()
