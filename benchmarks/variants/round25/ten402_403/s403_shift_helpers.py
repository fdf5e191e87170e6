"""Shift helpers used by several call sites of a sequence model's preprocessing."""
import torch


def shift_right_(t, k):
    """shift along dim 1 in place, zero fill (used for teacher forcing inputs)"""
    t[:, k:] = t[:, :-k]  # expect: TEN403
    t[:, :k] = 0  # ok
    return t


def shift_left_(t, k):
    t[:, :-k] = t[:, k:]  # expect: TEN403
    t[:, -k:] = 0  # ok
    return t


def shift_right_safe_(t, k):
    t[:, k:] = t[:, :-k].clone()  # ok
    t[:, :k] = 0  # ok
    return t


torch.manual_seed(0)
targets = torch.randint(1, 50, (3, 12)).float()
dec_in = shift_right_(targets.clone(), 1)
dec_in_safe = shift_right_safe_(targets.clone(), 1)
print("teacher-forcing input row0", dec_in[0].int().tolist())
print("safe                  row0", dec_in_safe[0].int().tolist())
lookahead = shift_left_(torch.arange(24.).reshape(2, 12), 3)
print("lookahead row1", lookahead[1].int().tolist())
