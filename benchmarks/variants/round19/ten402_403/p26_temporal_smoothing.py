"""Temporal smoothing of per-joint keypoint tracks (B, T, J)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

tracks = torch.cumsum(torch.randn(2, 10, 3), dim=1)
alpha = 0.6

# one-pole IIR smoothing written "vectorised"
smooth = tracks.clone()  # ok
smooth[:, 1:].lerp_(smooth[:, :-1], 1 - alpha)  # expect: TEN403

# the same thing, with the source materialised first
prev = tracks[:, :-1].clone()  # ok
smooth_fir = tracks.clone()  # ok
smooth_fir[:, 1:].lerp_(prev, 1 - alpha)  # ok

# proper recursive IIR
iir = tracks.clone()  # ok
for t in range(1, iir.shape[1]):
    iir[:, t] = alpha * iir[:, t] + (1 - alpha) * iir[:, t - 1]  # ok

# velocity damping: the scaled term is a fresh temporary
damped = tracks.clone()  # ok
damped[:, 1:] -= 0.5 * damped[:, :-1]  # ok
damped2 = tracks.clone()  # ok
damped2[:, 1:].sub_(damped2[:, :-1], alpha=0.5)  # expect: TEN403

print("vectorised vs fir:", (smooth - smooth_fir).abs().max().item())
print("vectorised vs iir:", (smooth - iir).abs().max().item())
print("damped mismatch:", (damped - damped2).abs().max().item())
