"""Depthwise causal conv1d with a single-token step path (Mamba/Hyena-style decoding)."""
import torch
import torch.nn.functional as F
from torch import nn


class CausalDepthwiseConv(nn.Module):
    def __init__(self, channels: int, kernel_size: int = 4, bias: bool = True):
        super().__init__()
        self.channels = channels
        self.kernel_size = kernel_size
        self.conv = nn.Conv1d(channels, channels, kernel_size, groups=channels, padding=kernel_size - 1, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)[..., : x.shape[-1]]

    def init_state(self, batch: int, device=None, dtype=None) -> torch.Tensor:
        return torch.zeros(batch, self.channels, self.kernel_size, device=device, dtype=dtype)

    @torch.no_grad()
    def prefill(self, x: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        L, w = x.shape[-1], self.kernel_size
        state.copy_(F.pad(x, (w - L, 0)) if L < w else x[..., -w:])  # ok
        return self.forward(x)

    @torch.no_grad()
    def step(self, x_t: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        w = state.shape[-1]
        state.narrow(-1, 0, w - 1).copy_(state.narrow(-1, 1, w - 1))  # expect: TEN403
        state[..., -1] = x_t
        y = (state * self.conv.weight.squeeze(1)).sum(-1)
        if self.conv.bias is not None:
            y = y + self.conv.bias
        return y

    @torch.no_grad()
    def step_reference(self, x_t: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        state.copy_(torch.roll(state, shifts=-1, dims=-1))  # ok
        state[:, :, -1] = x_t
        y = torch.einsum("bcw,cw->bc", state, self.conv.weight.squeeze(1))
        return y + self.conv.bias if self.conv.bias is not None else y
