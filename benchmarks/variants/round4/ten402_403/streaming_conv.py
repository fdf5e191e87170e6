"""Causal 1-D convolution that can be run chunk by chunk with a carried state."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingCausalConv1d(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__()
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size, dilation=dilation)
        self.context = (kernel_size - 1) * dilation
        self.register_buffer("state", torch.zeros(1, in_ch, self.context), persistent=False)

    def reset(self, batch_size):
        self.state = self.state.new_zeros(batch_size, self.state.shape[1], self.context)

    def forward_offline(self, x):
        return self.conv(F.pad(x, (self.context, 0)))

    def forward_chunk(self, chunk):
        """chunk: (B, C, T). Returns (B, out_ch, T) identical to the offline output."""
        full = torch.cat([self.state, chunk], dim=-1)
        out = self.conv(full)
        t = chunk.shape[-1]
        if t >= self.context:
            self.state.copy_(chunk[..., -self.context:])  # ok: different tensor
        else:
            self.state[..., :-t] = self.state[..., t:]  # expect: TEN403
            self.state[..., -t:] = chunk
        return out


def push_sample(history, sample):
    """history: (C, K) newest sample in column 0; sample: (C,)."""
    history[:, 1:] = history[:, :-1]  # expect: TEN403
    history[:, 0] = sample
    return history


def depthwise_fir_stream(signal, kernel):
    """Reference sample loop for a depthwise FIR; signal (C, N), kernel (C, K)."""
    c, k = kernel.shape
    hist = signal.new_zeros(c, k)
    out = []
    for n in range(signal.shape[1]):
        push_sample(hist, signal[:, n])
        out.append((hist * kernel).sum(-1))
    return torch.stack(out, dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = StreamingCausalConv1d(3, 4, kernel_size=5, dilation=2)
    x = torch.randn(2, 3, 30)
    layer.reset(2)
    with torch.no_grad():
        streamed = torch.cat([layer.forward_chunk(x[..., i:i + 3]) for i in range(0, 30, 3)], -1)
        ref = layer.forward_offline(x)
    print((streamed - ref).abs().max())
    print(depthwise_fir_stream(torch.randn(2, 10), torch.randn(2, 4)).shape)
