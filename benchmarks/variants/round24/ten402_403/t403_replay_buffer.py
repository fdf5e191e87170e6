"""FIFO replay buffer that shifts its storage when full (vs. a ring buffer)."""
import torch

torch.manual_seed(0)


class ShiftingReplay:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.rew = torch.zeros(capacity)
        self.size = 0

    def add(self, obs, rew):
        if self.size == len(self.obs):
            self.rew[:-1] = self.rew[1:].clone()  # ok
            self.obs[:-1] = self.obs[1:]  # expect: TEN403
            self.size -= 1
        self.obs[self.size] = obs
        self.rew[self.size:self.size + 1] = rew  # ok
        self.size += 1


class RingReplay:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.rew = torch.zeros(capacity)
        self.ptr = 0
        self.full = False

    def add(self, obs, rew):
        self.obs[self.ptr:self.ptr + 1] = obs  # ok
        self.rew[self.ptr] = rew
        self.ptr = (self.ptr + 1) % len(self.obs)
        self.full = self.full or self.ptr == 0


def fill(buf, n=12):
    g = torch.Generator().manual_seed(4)
    for i in range(n):
        buf.add(torch.randn(3, generator=g), float(i))
    return buf.obs.sum().item(), buf.rew.sum().item()


if __name__ == "__main__":
    for cls in (ShiftingReplay, RingReplay):
        try:
            o, r = fill(cls(8, 3))
            print(cls.__name__, f"{o:.5f} {r:.1f}")
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:60])
