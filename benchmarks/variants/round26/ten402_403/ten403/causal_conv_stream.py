import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class StreamingCausalConv(nn.Module):
    """Conv1d that consumes one time step at a time and keeps the last k-1 inputs."""

    def __init__(self, channels, kernel):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel)
        self.kernel = kernel
        self.register_buffer("state", torch.zeros(1, channels, kernel))

    def reset(self, batch):
        self.state = torch.zeros(batch, self.conv.in_channels, self.kernel)

    def step(self, x_t):
        self.state[..., :-1] = self.state[..., 1:]  # expect: TEN403
        self.state[..., -1] = x_t  # ok
        return self.conv(self.state).squeeze(-1)

    def full(self, x):
        return self.conv(F.pad(x, (self.kernel - 1, 0)))  # ok


torch.manual_seed(0)
layer = StreamingCausalConv(3, 4)
x = torch.randn(2, 3, 10)
layer.reset(2)
with torch.no_grad():
    streamed = torch.stack([layer.step(x[..., t]) for t in range(10)], -1)
    offline = layer.full(x)
print("streamed t=9", [round(v, 4) for v in streamed[0, :, 9].tolist()])
print("offline  t=9", [round(v, 4) for v in offline[0, :, 9].tolist()])
print("max diff", round((streamed - offline).abs().max().item(), 6))
