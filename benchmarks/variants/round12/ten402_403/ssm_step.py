"""Single-token decoding step for a gated SSM block with a causal depthwise conv."""
import torch
import torch.nn as nn
import torch.nn.functional as F

D_CONV = 4


class ConvState:
    def __init__(self, batch, d_inner, device=None, dtype=None):
        self.state = torch.zeros(batch, d_inner, D_CONV, device=device, dtype=dtype)

    def push(self, x_t: torch.Tensor) -> torch.Tensor:
        """x_t: (batch, d_inner) -> returns the full window (batch, d_inner, D_CONV)."""
        self.state[..., :-1] = self.state[..., 1:]  # expect: TEN403
        self.state[..., -1] = x_t
        return self.state

    def push_narrow(self, x_t: torch.Tensor) -> torch.Tensor:
        self.state.narrow(-1, 0, D_CONV - 1).copy_(self.state.narrow(-1, 1, D_CONV - 1))  # expect: TEN403
        self.state.select(-1, D_CONV - 1).copy_(x_t)
        return self.state

    def push_roll(self, x_t: torch.Tensor) -> torch.Tensor:
        self.state.copy_(torch.roll(self.state, shifts=-1, dims=-1))  # ok
        self.state[:, :, -1] = x_t
        return self.state


class GatedSSMStep(nn.Module):
    def __init__(self, d_model=256, expand=2, d_state=16):
        super().__init__()
        d_inner = expand * d_model
        self.in_proj = nn.Linear(d_model, 2 * d_inner, bias=False)
        self.conv = nn.Conv1d(d_inner, d_inner, D_CONV, groups=d_inner, padding=D_CONV - 1)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, d_state + 1).float()).repeat(d_inner, 1))
        self.B = nn.Linear(d_inner, d_state, bias=False)
        self.C = nn.Linear(d_inner, d_state, bias=False)
        self.out_proj = nn.Linear(d_inner, d_model, bias=False)

    def step(self, x, conv: ConvState, ssm_state):
        xz = self.in_proj(x)
        xi, z = xz.chunk(2, dim=-1)
        window = conv.push(xi)
        xi = (window * self.conv.weight.squeeze(1)).sum(-1) + self.conv.bias
        xi = F.silu(xi)
        A = -torch.exp(self.A_log)
        dA = torch.exp(A)
        ssm_state.mul_(dA).add_(xi.unsqueeze(-1) * self.B(xi).unsqueeze(1))  # ok
        y = (ssm_state * self.C(xi).unsqueeze(1)).sum(-1)
        return self.out_proj(y * F.silu(z)), ssm_state


def split_halves_(buf: torch.Tensor) -> torch.Tensor:
    """Copy the second half of the last dim over the first half (disjoint views)."""
    h = buf.size(-1) // 2
    buf.narrow(-1, 0, h).copy_(buf.narrow(-1, h, h))  # ok
    return buf
