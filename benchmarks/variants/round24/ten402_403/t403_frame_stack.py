"""Atari-style frame stacking wrappers keeping the last k frames in one tensor."""
import torch

torch.manual_seed(0)


class FrameStack:
    """Oldest frame first: shift left by one frame (c channels), append newest."""

    def __init__(self, k, c, h, w, batch=2):
        self.c = c
        self.frames = torch.zeros(batch, k * c, h, w)

    def step(self, obs):
        c = self.c
        self.frames[:, :-c] = self.frames[:, c:]  # expect: TEN403
        self.frames[:, -c:] = obs  # ok
        return self.frames


class NewestFirstFrameStack(FrameStack):
    """Newest frame first: shift right by c channels, write newest at the front."""

    def step(self, obs):
        c = self.c
        self.frames[:, c:] = self.frames[:, :-c]  # expect: TEN403
        self.frames[:, :c] = obs  # ok
        return self.frames


class CatFrameStack(FrameStack):
    def step(self, obs):
        self.frames = torch.cat([self.frames[:, self.c:], obs], dim=1)  # ok
        return self.frames


def rollout(stack, n=6):
    g = torch.Generator().manual_seed(1)
    total = 0.0
    for t in range(n):
        obs = torch.rand(stack.frames.shape[0], stack.c, 5, 5, generator=g) + t
        total += stack.step(obs).mean(dim=(2, 3)).pow(2).sum().item()
    return total, stack.frames.mean(dim=(0, 2, 3))


if __name__ == "__main__":
    for cls in (FrameStack, NewestFirstFrameStack, CatFrameStack):
        try:
            total, per_ch = rollout(cls(4, 3, 5, 5))
            print(cls.__name__, f"{total:.5f}", [round(v, 4) for v in per_ch.tolist()])
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:60])
