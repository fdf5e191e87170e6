"""A toy falling-sand cellular automaton and Game-of-Life neighbour counts."""
import torch

torch.manual_seed(0)
grid = (torch.rand(6, 5) > 0.6).float()


def gravity_step_inplace(g):
    """Everything falls one row (row 0 is the top)."""
    g[1:, :] = g[:-1, :]  # expect: TEN403
    g[0, :] = 0
    return g


def gravity_step_roll(g):
    out = torch.roll(g, shifts=1, dims=0)  # ok
    out[0, :] = 0
    return out


def neighbours(g):
    """Sum of the 8 neighbours, built from shifted copies into fresh tensors."""
    total = torch.zeros_like(g)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy == 0 and dx == 0:
                continue
            shifted = torch.zeros_like(g)
            ys = slice(max(dy, 0), g.shape[0] + min(dy, 0))
            yd = slice(max(-dy, 0), g.shape[0] + min(-dy, 0))
            xs = slice(max(dx, 0), g.shape[1] + min(dx, 0))
            xd = slice(max(-dx, 0), g.shape[1] + min(-dx, 0))
            shifted[yd, xd] = g[ys, xs]  # ok
            total += shifted
    return total


print("neighbours:", neighbours(grid).flatten().tolist())
print("roll step:", gravity_step_roll(grid.clone()).flatten().tolist())
try:
    print("in-place step:", gravity_step_inplace(grid.clone()).flatten().tolist())
except RuntimeError as e:
    print("in-place step RuntimeError:", str(e).split(".")[0])
