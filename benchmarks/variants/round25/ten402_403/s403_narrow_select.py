"""Batch of particle trajectories (B, T, 2); positions advanced with narrow/select."""
import torch


def advance(traj, steps):
    T = traj.shape[1]
    # move history one slot back in time, newest stays at slot 0
    traj.narrow(1, 1, T - 1).copy_(traj.narrow(1, 0, T - 1))  # expect: TEN403
    for _ in range(steps):
        traj.select(1, 0).add_(0.1)
    return traj


def duplicate_first(traj):
    traj.select(1, 1).copy_(traj.select(1, 0))  # ok
    return traj


def refresh(traj):
    T = traj.shape[1]
    traj.narrow(1, 0, T).copy_(traj.narrow(1, 0, T))  # either: TEN403
    return traj


torch.manual_seed(0)
traj = torch.randn(3, 5, 2)
orig = traj.clone()
advance(traj, 2)
ref = orig.clone()
ref[:, 1:] = orig[:, :-1]  # ok
ref[:, 0] += 0.2
print("advance error", round((traj - ref).abs().max().item(), 6))
duplicate_first(traj)
refresh(traj)
print("checksum", round(traj.sum().item(), 5))
