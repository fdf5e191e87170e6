"""Atari-style preprocessing: grayscale, resize, and stack the last k frames."""
import torch
import torch.nn.functional as F


def preprocess(frame):
    """frame: uint8 HxWx3 -> float 84x84 in [0, 1]."""
    x = frame.permute(2, 0, 1).float().div_(255.0)
    gray = (0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0).unsqueeze(0)
    return F.interpolate(gray, size=(84, 84), mode="bilinear", align_corners=False)[0, 0]


class FrameStack:
    def __init__(self, k=4, height=84, width=84, device="cpu"):
        self.k = k
        self.frames = torch.zeros(k, height, width, device=device)
        self.filled = 0

    def reset(self, first_frame):
        obs = preprocess(first_frame)
        self.frames[:] = obs  # ok: broadcast from a separate tensor
        self.filled = self.k
        return self.frames.clone()

    def push(self, frame):
        obs = preprocess(frame)
        # oldest frame falls off the front, newest goes at the back
        self.frames[:-1] = self.frames[1:]  # expect: TEN403
        self.frames[-1] = obs
        self.filled = min(self.filled + 1, self.k)
        return self.frames.clone()


class RandomEnv:
    def __init__(self, h=210, w=160, horizon=20):
        self.h, self.w, self.horizon = h, w, horizon
        self.t = 0

    def reset(self):
        self.t = 0
        return torch.randint(0, 256, (self.h, self.w, 3), dtype=torch.uint8)

    def step(self, action):
        self.t += 1
        frame = torch.randint(0, 256, (self.h, self.w, 3), dtype=torch.uint8)
        return frame, float(action == 0), self.t >= self.horizon


def rollout(env, policy, k=4):
    stack = FrameStack(k)
    state = stack.reset(env.reset())
    total, done = 0.0, False
    while not done:
        action = policy(state)
        frame, reward, done = env.step(action)
        state = stack.push(frame)
        total += reward
    return total


if __name__ == "__main__":
    torch.manual_seed(0)
    print(rollout(RandomEnv(horizon=5), lambda s: int(s.mean() > 0.5)))
