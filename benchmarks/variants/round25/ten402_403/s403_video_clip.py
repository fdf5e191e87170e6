"""Sliding video clip buffer (B, T, C, H, W) for an online action-recognition model."""
import torch
import torch.nn as nn


class ClipBuffer:
    def __init__(self, b, t, c, h, w, stride):
        self.clip = torch.zeros(b, t, c, h, w)
        self.stride = stride

    def add_frames(self, frames):
        s = self.stride
        self.clip[:, :-s] = self.clip[:, s:]  # expect: TEN403
        self.clip[:, -s:] = frames  # ok

    def temporal_shift(self):
        # TSM-style: a slice of channels moves one step forward in time, another one back
        c = self.clip.shape[2]
        f = c // 4
        self.clip[:, 1:, :f] = self.clip[:, :-1, :f]  # expect: TEN403
        self.clip[:, :-1, f:2 * f] = self.clip[:, 1:, f:2 * f]  # expect: TEN403

    def temporal_shift_out_of_place(self):
        c = self.clip.shape[2]
        f = c // 4
        out = self.clip.clone()
        out[:, 1:, :f] = self.clip[:, :-1, :f]  # ok
        out[:, :-1, f:2 * f] = self.clip[:, 1:, f:2 * f]  # ok
        return out


torch.manual_seed(0)
net = nn.Sequential(nn.Conv3d(8, 4, 3, padding=1), nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(4, 5))
buf = ClipBuffer(2, 6, 8, 4, 4, 2)
with torch.no_grad():
    for step in range(4):
        buf.add_frames(torch.randn(2, 2, 8, 4, 4) + step)
    ref = buf.temporal_shift_out_of_place()
    buf.temporal_shift()
    print("tsm error vs out-of-place", round((buf.clip - ref).abs().max().item(), 6))
    print("logits", [round(v, 5) for v in net(buf.clip.transpose(1, 2))[0].tolist()])
