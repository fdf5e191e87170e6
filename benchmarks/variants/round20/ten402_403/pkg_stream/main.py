"""Run: python -m pkg_stream.main"""
import torch

from .buffers import HopShifter, lag_stack

torch.manual_seed(0)
torch.set_num_threads(1)

chunks = torch.randn(8, 2, 4)
a = HopShifter(2, 16, 4, safe=False)
b = HopShifter(2, 16, 4, safe=True)
for c in chunks:
    fa, fb = a.advance(c), b.advance(c)
print("hop buffer matches safe version:", torch.equal(fa, fb))

x = torch.randn(3, 10, 2)
print("lag_stack matches safe version:", torch.equal(lag_stack(x, 3), lag_stack(x, 3, safe=True)))

# a frame history kept by the caller, (envs, frames, features)
frames = torch.randn(4, 5, 6)
ref = torch.cat([frames[:, :1], frames[:, :-1]], dim=1)
frames[:, 1:] = frames[:, :-1]  # expect: TEN403
print("caller-side frame shift matches:", torch.equal(frames, ref))
alt = torch.randn(4, 5, 6)
ref = torch.cat([alt[:, :1], alt[:, :-1]], dim=1)
alt[:, 1:] = alt[:, :-1].clone()  # ok
print("cloned frame shift matches:", torch.equal(alt, ref))
