"""Causal depthwise conv with a rolling state cache (Mamba/RWKV-style decoding)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

B, D, K = 2, 4, 4
conv = nn.Conv1d(D, D, K, groups=D, bias=False)


class ConvCache:
    def __init__(self):
        self.state = torch.zeros(B, D, K)

    def step(self, x_t):
        st = self.state
        st[..., :-1] = st[..., 1:]  # expect: TEN403
        st[..., -1] = x_t  # ok
        return (st * conv.weight.squeeze(1)).sum(-1)


class ConvCacheRoll(ConvCache):
    def step(self, x_t):
        self.state.copy_(torch.roll(self.state, shifts=-1, dims=-1))  # ok
        self.state[..., -1] = x_t  # ok
        return (self.state * conv.weight.squeeze(1)).sum(-1)


c1, c2 = ConvCache(), ConvCacheRoll()
xs = torch.randn(6, B, D)
with torch.no_grad():
    y1 = torch.stack([c1.step(x) for x in xs])
    y2 = torch.stack([c2.step(x) for x in xs])
    full = conv(nn.functional.pad(xs.permute(1, 2, 0), (K - 1, 0))).permute(2, 0, 1)
print("roll cache matches full conv:", torch.allclose(y2, full, atol=1e-6))
print("slice cache matches:", torch.allclose(y1, full, atol=1e-6))
