"""Atari-style frame stacking for a batch of environments, shifted in place."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class FrameStack:
    """Keeps the last k observations, newest in the first c channels."""

    def __init__(self, n_envs, c, k, h, w, mode):
        self.c, self.k, self.mode = c, k, mode
        self.frames = torch.zeros(n_envs, c * k, h, w)

    def push(self, obs):
        if self.mode == "inplace":
            self.frames[:, self.c:] = self.frames[:, :-self.c]  # expect: TEN403
        elif self.mode == "clone":
            self.frames[:, self.c:] = self.frames[:, :-self.c].clone()  # ok
        else:
            self.frames = torch.roll(self.frames, shifts=self.c, dims=1)  # ok
        self.frames[:, :self.c] = obs
        return self.frames


def simulate(mode, n_envs):
    torch.manual_seed(0)
    stack = FrameStack(n_envs, c=3, k=4, h=5, w=5, mode=mode)
    for t in range(6):
        out = stack.push(torch.randn(n_envs, 3, 5, 5))
    return out


ref = simulate("clone", 8)
for mode in ("inplace", "roll"):
    out = simulate(mode, 8)
    print(f"n_envs=8 mode={mode} matches clone reference: {torch.equal(out, ref)}")

# a single environment: the channel slice is then contiguous
single = torch.randn(1, 12, 5, 5)
expected = single.clone()
expected[:, 3:] = expected[:, :-3].clone()  # ok
try:
    single[:, 3:] = single[:, :-3]  # expect: TEN403
    print("n_envs=1 inplace matches:", torch.equal(single, expected))
except RuntimeError as err:
    print("n_envs=1 inplace shift refused:", str(err).split(":")[0])

# building a new stack is fine
fresh = torch.empty_like(expected)
fresh[:, 3:] = expected[:, :-3]  # ok
fresh[:, :3] = expected[:, :3]
print("fresh stack mean:", round(fresh.mean().item(), 4))
