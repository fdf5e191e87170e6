"""Atari-style frame stacking kept on the torch side to avoid numpy copies."""
import torch
import torch.nn.functional as F


def preprocess(frame, size=42):
    # frame: (H, W, 3) uint8 -> (size, size) float in [0, 1]
    x = frame.float().mean(-1, keepdim=True).permute(2, 0, 1).unsqueeze(0) / 255.0
    return F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False)[0, 0]


class TorchFrameStack:
    def __init__(self, k=4, size=42, device="cpu"):
        self.k = k
        self.frames = torch.zeros(k, size, size, device=device)

    def reset(self, obs):
        self.frames[:] = obs.unsqueeze(0)
        return self.frames

    def step(self, obs):
        self.frames[:-1] = self.frames[1:]  # expect: TEN403
        self.frames[-1] = obs
        return self.frames


class CatFrameStack:
    def __init__(self, k=4, size=42, device="cpu"):
        self.frames = torch.zeros(k, size, size, device=device)

    def reset(self, obs):
        self.frames = obs.unsqueeze(0).repeat(self.frames.shape[0], 1, 1)
        return self.frames

    def step(self, obs):
        self.frames = torch.cat([self.frames[1:], obs.unsqueeze(0)], dim=0)  # ok
        return self.frames


def rollout(stack, steps=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    obs = preprocess(torch.randint(0, 256, (84, 84, 3), generator=g, dtype=torch.uint8))
    state = stack.reset(obs)
    for t in range(steps):
        obs = preprocess(torch.randint(0, 256, (84, 84, 3), generator=g, dtype=torch.uint8))
        state = stack.step(obs)
    return state


if __name__ == "__main__":
    ref = rollout(CatFrameStack())
    print("cat stack ok:", tuple(ref.shape))
    got = rollout(TorchFrameStack())
    print("in-place stack matches:", torch.equal(got, ref))
