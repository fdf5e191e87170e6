"""Strided in-place updates on interleaved stereo buffers."""
import torch

torch.manual_seed(0)
# (batch, 2*N) interleaved L/R samples
stereo = torch.randn(2, 16)
orig = stereo.clone()

# copy left channel into right channel (even -> odd positions): disjoint
stereo[:, 1::2] = stereo[:, ::2]  # ok
print("mono-ised", [round(v, 4) for v in stereo[0, :6].tolist()])

# delay left channel by one frame (2 samples) in place: overlapping stepped slices
delayed = orig.clone()
delayed[:, 2::2] = delayed[:, :-2:2]  # expect: TEN403
ref = orig.clone()
ref[:, 2::2] = orig[:, :-2:2]  # ok
print("delay checksum", round(delayed.sum().item(), 5), "reference", round(ref.sum().item(), 5))

# decimate by 2 in place (keep every other frame, compact to the front)
comp = orig.clone()
comp[:, :8] = comp[:, ::2]  # expect: TEN403
print("compacted", [round(v, 4) for v in comp[0, :8].tolist()])
print("expected ", [round(v, 4) for v in orig[0, ::2].tolist()])
