"""Atari-style frame stacking for a batch of vectorised environments."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

N_ENVS, STACK, H, W = 3, 4, 5, 5


class FrameStack:
    def __init__(self):
        self.frames = torch.zeros(N_ENVS, STACK, H, W)
        self.frames_ref = torch.zeros(N_ENVS, STACK, H, W)

    def push(self, obs):
        self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403
        self.frames[:, -1] = obs  # ok
        self.frames_ref = torch.roll(self.frames_ref, shifts=-1, dims=1)  # ok
        self.frames_ref[:, -1] = obs  # ok

    def push_reverse_order(self, obs):
        # newest frame first
        self.frames[:, 1:] = self.frames[:, :-1]  # expect: TEN403
        self.frames[:, 0] = obs  # ok
        self.frames_ref[:, 1:] = self.frames_ref[:, :-1].clone()  # ok
        self.frames_ref[:, 0] = obs  # ok


fs = FrameStack()
for t in range(6):
    fs.push(torch.full((N_ENVS, H, W), float(t)))
print("oldest..newest:", fs.frames[0, :, 0, 0].tolist(), "ref:", fs.frames_ref[0, :, 0, 0].tolist())
fs2 = FrameStack()
for t in range(6):
    fs2.push_reverse_order(torch.full((N_ENVS, H, W), float(t)))
print("newest..oldest:", fs2.frames[0, :, 0, 0].tolist(), "ref:", fs2.frames_ref[0, :, 0, 0].tolist())
