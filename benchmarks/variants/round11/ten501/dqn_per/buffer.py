import torch


class PrioritizedReplay:
    def __init__(self, capacity, obs_dim, alpha=0.6):
        self.capacity = capacity
        self.alpha = alpha
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.act = torch.zeros(capacity, dtype=torch.long)
        self.rew = torch.zeros(capacity)
        self.done = torch.zeros(capacity)
        self.prios = torch.ones(capacity)
        self.pos = 0
        self.full = False

    @torch.no_grad()
    def add(self, o, a, r, o2, d):
        i = self.pos
        self.obs[i], self.act[i], self.rew[i], self.next_obs[i], self.done[i] = o, a, r, o2, d
        self.prios[i] = self.prios.max() if (self.full or i > 0) else 1.0
        self.pos = (self.pos + 1) % self.capacity
        self.full = self.full or self.pos == 0

    @torch.no_grad()
    def sample(self, batch, beta=0.4):
        n = self.capacity if self.full else self.pos
        p = self.prios[:n] ** self.alpha
        p = p / p.sum()
        idx = torch.multinomial(p, batch, replacement=True)
        w = (n * p[idx]) ** (-beta)
        return idx, self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx], self.done[idx], w / w.max()

    def update_priorities(self, idx, new_prios):
        self.prios[idx] = new_prios + 1e-6
