import torch

torch.manual_seed(0)

# (features, time) layout from an upstream loader; we shift along time through a transposed view
feats = torch.arange(20, dtype=torch.float32).view(4, 5)

x = feats.clone()
xt = x.t()  # (time, features) view
xt[1:] = xt[:-1]  # expect: TEN403
print("shift via transpose:", x.tolist())

y = feats.clone()
yt = y.t()
yt[1:] = yt[:-1].clone()  # ok
print("shift via transpose (clone):", y.tolist())

z = feats.clone()
col = z.select(1, 2)
col[1:] = col[:-1]  # expect: TEN403
print("select column shift:", z[:, 2].tolist())

w = feats.clone()
col_w = w.select(1, 2)
col_w[1:] = feats.select(1, 2)[:-1]  # ok
print("select column shift (from original):", w[:, 2].tolist())
