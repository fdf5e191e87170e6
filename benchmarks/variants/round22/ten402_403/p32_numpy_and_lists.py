"""Look-alike shifts on NumPy arrays and Python lists (which handle overlap), next to torch."""
import numpy as np
import torch

torch.manual_seed(0)
rng = np.random.default_rng(0)

# replay of recent observations kept in NumPy on the host
obs_hist = np.arange(12, dtype=np.float32).reshape(3, 4)
obs_hist[:, 1:] = obs_hist[:, :-1]  # ok
obs_hist[:, 0] = -1
print("numpy 2-D shift :", obs_hist.tolist())

rewards = rng.normal(size=6).round(3)
rewards[1:] = rewards[:-1]  # ok
rewards[0] = 0.0
print("numpy 1-D shift :", rewards.tolist())

frames = np.zeros((2, 8), dtype=np.float32)
for t in range(1, 6):
    frames[:, :-2] = frames[:, 2:]  # ok
    frames[:, -2:] = t
print("numpy frames    :", frames.tolist())

history = [1, 2, 3, 4, 5]
history[1:] = history[:-1]  # ok
history[0] = 0
print("list shift      :", history)

# a torch tensor viewed through NumPy: NumPy still resolves the overlap
t = torch.arange(8.0)
view = t.numpy()
view[2:] = view[:-2]  # ok
print("torch via numpy :", t.tolist())

# ... but the same shift on a tensor created from NumPy goes through torch
arr = np.arange(8, dtype=np.float32)
tt = torch.from_numpy(arr)
try:
    tt[2:] = tt[:-2]  # expect: TEN403
    print("torch from numpy:", tt.tolist())
except RuntimeError as err:
    print("torch from numpy failed:", str(err).split(".")[0])

# converted back with .copy(): the torch side is no longer involved
arr2 = torch.arange(8.0).numpy().copy()
arr2[1:] = arr2[:-1]  # ok
print("numpy copy shift:", arr2.tolist())
