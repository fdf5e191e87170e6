"""Single-step decoding for a depthwise causal conv (Mamba-style conv_state of shape (B, D, W))."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class CausalConvStep(nn.Module):
    def __init__(self, d, width, roll_update=False):
        super().__init__()
        self.conv = nn.Conv1d(d, d, width, groups=d, padding=width - 1)
        self.width, self.roll_update = width, roll_update

    def forward_full(self, x):
        return self.conv(x)[..., :x.shape[-1]]

    def step(self, conv_state, x_t):
        if self.roll_update:
            conv_state.copy_(torch.roll(conv_state, shifts=-1, dims=-1))  # ok
        else:
            conv_state[:, :, :-1] = conv_state[:, :, 1:]  # expect: TEN403
        conv_state[:, :, -1] = x_t  # ok
        w = self.conv.weight.squeeze(1)
        return (conv_state * w).sum(-1) + self.conv.bias


if __name__ == "__main__":
    B, D, W, L = 2, 4, 4, 6
    x = torch.randn(B, D, L)
    for roll in (False, True):
        block = CausalConvStep(D, W, roll_update=roll)
        state = torch.zeros(B, D, W)
        with torch.no_grad():
            ys = torch.stack([block.step(state, x[..., t]) for t in range(L)], -1)
            ref = block.forward_full(x)
        print("roll" if roll else "slice", "step == full:", torch.allclose(ys, ref, atol=1e-6))
