"""Fixed-size transition storage and return computations for on/off-policy RL."""
import torch


class CircularReplay:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.next_obs = torch.zeros(capacity, obs_dim)
        self.rew = torch.zeros(capacity)
        self.done = torch.zeros(capacity)
        self.capacity = capacity
        self.idx = 0
        self.full = False

    def add(self, obs, rew, next_obs, done):
        self.obs[self.idx] = obs  # ok
        self.next_obs[self.idx] = next_obs
        self.rew[self.idx] = rew
        self.done[self.idx] = done
        self.idx = (self.idx + 1) % self.capacity
        self.full = self.full or self.idx == 0

    def chronological(self):
        if not self.full:
            return self.obs[: self.idx]
        return torch.cat((self.obs[self.idx:], self.obs[: self.idx]))  # ok


def discounted_returns(rewards, dones, gamma=0.99):
    ret = torch.zeros_like(rewards)
    running = torch.zeros(())
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running * (1.0 - dones[t])
        ret[t] = running  # ok
    return ret


def td_targets(rewards, values, dones, gamma=0.99):
    """One-step bootstrapped targets; values has one extra entry for the last state."""
    targets = torch.empty_like(rewards)
    targets[:] = rewards + gamma * values[1:] * (1.0 - dones)  # ok
    return targets


def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    T = len(rewards)
    adv = torch.zeros(T + 1)
    deltas = rewards + gamma * values[1:] * (1 - dones) - values[:-1]
    for t in reversed(range(T)):
        adv[t] = deltas[t] + gamma * lam * (1 - dones[t]) * adv[t + 1]  # ok
    return adv[:T]


def nstep_rewards(rewards, n=3, gamma=0.9):
    out = rewards.clone()  # ok
    for k in range(1, n):
        out[:-k] += (gamma ** k) * rewards[k:]  # ok
    return out


def nstep_rewards_inplace(rewards, n=3, gamma=0.9):
    """Same as nstep_rewards but accumulates into the caller's tensor."""
    src = rewards.clone()  # ok
    for k in range(1, n):
        rewards[:-k].add_(src[k:], alpha=gamma ** k)  # ok
    return rewards


if __name__ == "__main__":
    buf = CircularReplay(4, 2)
    for i in range(6):
        buf.add(torch.full((2,), float(i)), 1.0, torch.zeros(2), 0.0)
    print("chronological", buf.chronological()[:, 0].tolist())
    r = torch.tensor([1.0, 0.0, 2.0, 1.0])
    d = torch.tensor([0.0, 0.0, 0.0, 1.0])
    v = torch.tensor([0.5, 0.4, 0.3, 0.2, 0.0])
    print("returns", discounted_returns(r, d).tolist())
    print("td", td_targets(r, v, d).tolist())
    print("gae", gae(r, v, d).tolist())
    print("nstep equal:", torch.allclose(nstep_rewards(r), nstep_rewards_inplace(r.clone())))
