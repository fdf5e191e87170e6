"""Causal 1-D convolution that can be run chunk by chunk on a live mono
stream; the left context is kept in a preallocated buffer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingCausalConv(nn.Module):
    def __init__(self, in_ch=1, out_ch=4, kernel_size=31, hop=16):
        super().__init__()
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size)
        self.ctx = kernel_size - 1
        self.hop = hop
        self.register_buffer("state", torch.zeros(in_ch, self.ctx + hop), persistent=False)

    def reset(self):
        self.state.zero_()

    def forward(self, chunk):
        # chunk: (in_ch, hop)
        hop = self.hop
        self.state[:, -hop:] = chunk
        out = self.conv(self.state.unsqueeze(0))[0]
        tail = self.state[:, hop:]
        self.state[:, :-hop] = tail  # expect: TEN403
        return out

    def offline(self, x):
        return self.conv(F.pad(x.unsqueeze(0), (self.ctx, 0)))[0]


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = StreamingCausalConv()
    signal = torch.randn(1, 160)
    with torch.no_grad():
        ref = layer.offline(signal)
        outs = [layer(signal[:, i:i + 16]) for i in range(0, 160, 16)]
    print("max abs err vs offline:", (torch.cat(outs, -1) - ref).abs().max().item())
