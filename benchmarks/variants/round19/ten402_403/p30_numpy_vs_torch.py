"""Port of a NumPy delay buffer to torch: same slicing, different aliasing semantics."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)

hist_np = np.zeros((2, 6), dtype=np.float32)
hist_t = torch.zeros(2, 6)
hist_t2 = torch.zeros(2, 6)
for t in range(8):
    obs = rng.standard_normal(2).astype(np.float32)
    hist_np[:, 1:] = hist_np[:, :-1]  # ok
    hist_np[:, 0] = obs  # ok
    hist_t[:, 1:] = hist_t[:, :-1]  # expect: TEN403
    hist_t[:, 0] = torch.from_numpy(obs)  # ok
    hist_t2[:, 1:] = torch.from_numpy(hist_np[:, 1:].copy())  # ok
    hist_t2[:, 0] = torch.from_numpy(obs)  # ok

acc = np.arange(8, dtype=np.float64).reshape(2, 4)
np.add(acc[:, 1:], acc[:, :-1], out=acc[:, 1:])  # ok
print("numpy buffer  :", np.round(hist_np[0], 3).tolist())
print("torch buffer  :", [round(v, 3) for v in hist_t[0].tolist()])
print("torch via copy:", [round(v, 3) for v in hist_t2[0].tolist()])
print("numpy out= add:", acc[0].tolist())
