"""Keep a short position/velocity history for each particle of a toy simulation."""
import torch

torch.manual_seed(0)
P, H = 3, 5
pos_hist = torch.zeros(P, H)
vel_hist = torch.zeros(P, H)
pos = torch.randn(P)
vel = torch.randn(P)

for step in range(6):
    vel = vel - 0.1 * pos
    pos = pos + 0.1 * vel
    pos_hist[:, 1:], vel_hist[:, 1:] = pos_hist[:, :-1], vel_hist[:, :-1]  # expect: TEN403
    pos_hist[:, 0], vel_hist[:, 0] = pos, vel

print("pos hist:", [round(v, 4) for v in pos_hist.flatten().tolist()])
print("vel hist:", [round(v, 4) for v in vel_hist.flatten().tolist()])

# exchanging histories between two different tensors is fine
a = torch.arange(10.0).reshape(2, 5)
b = torch.arange(10.0, 20.0).reshape(2, 5)
a[:, 1:], b[:, 1:] = b[:, :-1], a[:, :-1].clone()  # ok
print("a:", a.flatten().tolist())
print("b:", b.flatten().tolist())
