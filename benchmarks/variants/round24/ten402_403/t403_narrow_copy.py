"""Shift implemented with narrow() + copy_() in a streaming convolution state."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class StreamingConv1d(nn.Module):
    """Causal conv that keeps the last (kernel-1) inputs as state between chunks."""

    def __init__(self, ch, kernel, safe):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, kernel)
        self.safe = safe
        self.register_buffer("state", torch.zeros(1, ch, kernel - 1))

    def forward(self, chunk):
        outs = []
        for t in range(chunk.shape[-1]):
            s = self.state.shape[-1]
            if self.safe:
                self.state.narrow(2, 1, s - 1).copy_(self.state.narrow(2, 0, s - 1).clone())  # ok
            else:
                self.state.narrow(2, 1, s - 1).copy_(self.state.narrow(2, 0, s - 1))  # expect: TEN403
            # newest input sits at position 0 of the state
            window = torch.cat([self.state.flip(-1), chunk[..., t:t + 1]], -1)
            outs.append(self.conv(window))
            self.state.narrow(2, 0, 1).copy_(chunk[..., t:t + 1])  # ok
        return torch.cat(outs, -1)


if __name__ == "__main__":
    x = torch.randn(1, 2, 10)
    for safe in (True, False):
        torch.manual_seed(1)
        m = StreamingConv1d(2, 4, safe)
        with torch.no_grad():
            y = m(x[..., :5])
            y2 = m(x[..., 5:])
        print(f"safe={safe}", f"{y.sum().item():.5f} {y2.sum().item():.5f}")
