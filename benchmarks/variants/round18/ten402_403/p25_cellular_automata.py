"""Game of Life and a 1-D elementary automaton on small toroidal grids."""
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def neighbours_roll(grid):
    total = torch.zeros_like(grid)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                total += torch.roll(grid, shifts=(dy, dx), dims=(0, 1))  # ok
    return total


def neighbours_conv(grid):
    kernel = torch.ones(1, 1, 3, 3)
    kernel[0, 0, 1, 1] = 0
    padded = F.pad(grid[None, None], (1, 1, 1, 1), mode="circular")
    return F.conv2d(padded, kernel)[0, 0]


def neighbours_inplace(grid):
    """Box-sum by in-place running sums along each axis (non-toroidal)."""
    n = grid.clone()
    n[:, 1:] += n[:, :-1]  # expect: TEN403
    n[1:, :] += grid[:-1, :]  # ok
    return n


def life_step(grid, neighbours=neighbours_roll):
    n = neighbours(grid)
    return ((n == 3) | ((grid == 1) & (n == 2))).float()


def rule_step_numpy(cells, rule=110):
    table = np.array([(rule >> i) & 1 for i in range(8)], dtype=np.uint8)
    left = np.empty_like(cells)
    left[1:] = cells[:-1]  # ok
    left[0] = cells[-1]
    right = np.roll(cells, -1)
    return table[4 * left + 2 * cells + right]


def rule_step_torch(cells, rule=110):
    table = torch.tensor([(rule >> i) & 1 for i in range(8)], dtype=torch.long)
    left = torch.empty_like(cells)
    left[:, 1:] = cells[:, :-1]  # ok
    left[:, 0] = cells[:, -1]
    right = cells.roll(-1, dims=1)
    return table[4 * left + 2 * cells + right]


if __name__ == "__main__":
    grid = (torch.rand(12, 12) < 0.35).float()
    a = b = grid
    for _ in range(5):
        a, b = life_step(a), life_step(b, neighbours_conv)
    print("roll vs conv agree:", torch.equal(a, b), "alive:", int(a.sum()))
    boxed = neighbours_inplace(grid)
    print("in-place running sum, row 0:", boxed[0, :6].tolist())
    cells = np.zeros(32, dtype=np.uint8)
    cells[-1] = 1
    tcells = torch.from_numpy(cells.astype(np.int64)).repeat(2, 1)
    for _ in range(8):
        cells, tcells = rule_step_numpy(cells), rule_step_torch(tcells)
    print("rule 110 numpy == torch:", bool((torch.from_numpy(cells.astype(np.int64)) == tcells[0]).all()))
