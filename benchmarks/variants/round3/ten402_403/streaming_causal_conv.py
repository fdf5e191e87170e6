"""Sample-by-sample streaming inference for a dilated causal TCN using a receptive-field history buffer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__(in_ch, out_ch, kernel_size, dilation=dilation)
        self.left_pad = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left_pad, 0)))


class TCN(nn.Module):
    def __init__(self, channels=32, kernel_size=3, n_layers=8):
        super().__init__()
        self.inp = nn.Conv1d(1, channels, 1)
        self.layers = nn.ModuleList(
            CausalConv1d(channels, channels, kernel_size, dilation=2 ** i) for i in range(n_layers)
        )
        self.out = nn.Conv1d(channels, 1, 1)
        self.receptive_field = 1 + sum(l.left_pad for l in self.layers)

    def forward(self, x):  # x: (B, 1, T)
        h = self.inp(x)
        for layer in self.layers:
            h = h + torch.tanh(layer(h))
        return self.out(h)


class StreamingWrapper:
    """Feeds one sample at a time; keeps the last `receptive_field` samples of input."""

    def __init__(self, model, batch_size=1, device="cpu"):
        self.model = model.eval()
        self.rf = model.receptive_field
        self.history = torch.zeros(batch_size, 1, self.rf, device=device)

    def reset(self):
        self.history.zero_()

    @torch.no_grad()
    def step(self, sample):
        """sample: (B,) newest input value per stream; returns (B,) newest output."""
        self.history[:, :, :-1] = self.history[:, :, 1:]  # expect: TEN403
        self.history[:, 0, -1] = sample
        return self.model(self.history)[:, 0, -1]


def check_equivalence(n_samples=2000):
    torch.manual_seed(0)
    model = TCN()
    x = torch.randn(2, 1, n_samples)
    with torch.no_grad():
        offline = model(x)[:, 0]
    stream = StreamingWrapper(model, batch_size=2)
    online = torch.stack([stream.step(x[:, 0, t]) for t in range(n_samples)], dim=-1)
    err = (online - offline).abs().max().item()
    print(f"receptive field {model.receptive_field}, max abs error {err:.3e}")
    return err


if __name__ == "__main__":
    check_equivalence()
