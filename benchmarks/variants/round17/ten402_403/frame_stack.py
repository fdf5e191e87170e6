"""Frame stacking for a vectorised environment feeding a small conv policy."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class OldestFirstStack:
    """Channels ordered oldest..newest; new frames enter at the end."""

    def __init__(self, n_envs, k, c, h, w):
        self.c = c
        self.frames = torch.zeros(n_envs, k * c, h, w)

    def push(self, obs):
        self.frames[:, :-self.c] = self.frames[:, self.c:]  # expect: TEN403
        self.frames[:, -self.c:] = obs  # ok
        return self.frames


class NewestFirstStack(OldestFirstStack):
    """Channels ordered newest..oldest; new frames enter at the front."""

    def push(self, obs):
        self.frames[:, self.c:] = self.frames[:, :-self.c]  # expect: TEN403
        self.frames[:, :self.c] = obs  # ok
        return self.frames


class ClonedNewestFirstStack(OldestFirstStack):
    def push(self, obs):
        self.frames[:, self.c:] = self.frames[:, :-self.c].clone()  # ok
        self.frames[:, :self.c] = obs  # ok
        return self.frames


class ConcatStack(OldestFirstStack):
    def push(self, obs):
        self.frames = torch.cat([obs, self.frames[:, :-self.c]], dim=1)  # ok
        return self.frames


def fake_env(t, n_envs, c, h, w):
    base = torch.linspace(0, 1, h * w).view(1, 1, h, w)
    return (base * (t + 1) + 0.01 * torch.arange(n_envs * c).view(n_envs, c, 1, 1)).sin()


def main():
    n_envs, k, c, h, w = 3, 4, 2, 6, 6
    policy = nn.Sequential(nn.Conv2d(k * c, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 4 * 4, 4))
    for cls in (OldestFirstStack, NewestFirstStack, ClonedNewestFirstStack, ConcatStack):
        stack = cls(n_envs, k, c, h, w)
        for t in range(6):
            frames = stack.push(fake_env(t, n_envs, c, h, w))
        with torch.no_grad():
            logits = policy(frames)
        print(f"{cls.__name__:>24}: checksum {frames.sum().item():9.4f} action {logits.argmax(1).tolist()}")


if __name__ == "__main__":
    main()
