# causal dilated conv for a streaming model: left context kept in a state buffer
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv1d(3, 3, kernel_size=3, dilation=2)
pad = (conv.kernel_size[0] - 1) * conv.dilation[0]
x = torch.randn(1, 3, 20)

# offline reference: pad on the left
ref = conv(F.pad(x, (pad, 0)))

# streaming: state holds the last `pad` samples plus the new block
block = 2
state = torch.zeros(1, 3, pad + block)
outs = []
with torch.no_grad():
    for i in range(0, 20, block):
        state[..., :pad] = state[..., block:block + pad]  # expect: TEN403
        state[..., pad:] = x[..., i:i + block]  # ok
        outs.append(conv(state))
stream = torch.cat(outs, -1)
print("streaming matches offline:", torch.allclose(stream, ref, atol=1e-6))
print("max err", round((stream - ref).abs().max().item(), 6))

# a second, explicit variant: "shift the whole signal right by pad" in a scratch buffer
buf = torch.zeros(1, 3, 20 + pad)
buf[..., pad:] = x  # ok
print("scratch conv checksum", round(conv(buf).sum().item(), 5), "ref", round(ref.sum().item(), 5))
