"""Frame stacking for a batch of toy "pixel" environments feeding a small conv policy."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class MovingDotEnv:
    """num_envs dots moving right on an 8x8 grid; observation is the grid."""

    def __init__(self, num_envs, size=8):
        self.n, self.size = num_envs, size
        self.pos = torch.randint(0, size, (num_envs, 2))

    def observe(self):
        obs = torch.zeros(self.n, self.size, self.size)
        obs[torch.arange(self.n), self.pos[:, 0], self.pos[:, 1]] = 1.0  # ok
        return obs

    def step(self):
        self.pos[:, 1] = (self.pos[:, 1] + 1) % self.size  # ok
        done = self.pos[:, 1] == 0
        return self.observe(), done


class FrameStack:
    """Newest frame at index 0 along dim 1."""

    def __init__(self, num_envs, k, size):
        self.frames = torch.zeros(num_envs, k, size, size)

    def push(self, obs):
        self.frames[:, 1:] = self.frames[:, :-1]  # expect: TEN403
        self.frames[:, 0] = obs  # ok
        return self.frames

    def reset_where(self, done, obs):
        self.frames[done] = obs[done].unsqueeze(1)  # ok


class RollFrameStack(FrameStack):
    def push(self, obs):
        self.frames = torch.roll(self.frames, shifts=1, dims=1)  # ok
        self.frames[:, 0] = obs  # ok
        return self.frames


class CatFrameStack(FrameStack):
    def push(self, obs):
        self.frames = torch.cat([obs.unsqueeze(1), self.frames[:, :-1]], dim=1)  # ok
        return self.frames


def velocity_features(stack):
    # column of the dot in each of the stacked frames
    cols = torch.arange(stack.shape[-1], dtype=stack.dtype)
    return (stack.sum(2) * cols).sum(-1)


def main():
    policy = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 64, 2))
    for cls in (FrameStack, RollFrameStack, CatFrameStack):
        torch.manual_seed(1)
        env = MovingDotEnv(num_envs=3)
        stack = cls(3, 4, 8)
        obs = env.observe()
        for t in range(6):
            frames = stack.push(obs)
            obs, done = env.step()
            stack.reset_where(done, obs)
        with torch.no_grad():
            logits = policy(frames)
        print(f"{cls.__name__:14s} dot column per frame: {velocity_features(frames).tolist()} "
              f"logit sum {logits.sum():.4f}")


if __name__ == "__main__":
    main()
