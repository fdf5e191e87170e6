"""Grid-world state history kept in NumPy, with one torch mirror."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)


def step_positions(pos):
    moves = rng.integers(-1, 2, size=pos.shape)
    return np.clip(pos + moves, 0, 9)


def main():
    hist = np.zeros((6, 3), dtype=np.int64)           # rows = time, cols = (x, y, reward)
    mirror = torch.zeros(6, 3, dtype=torch.int64)
    pos = np.array([5, 5])
    for t in range(10):
        pos = step_positions(pos)
        reward = int(pos.sum() % 3 == 0)
        hist[1:] = hist[:-1]  # ok
        hist[0] = (*pos, reward)
        mirror[1:, :2] = mirror[:-1, :2]  # expect: TEN403
        mirror[1:, 2] = mirror[:-1, 2].clone()  # ok
        mirror[0] = torch.as_tensor(hist[0])
    grid = np.zeros((10, 10), dtype=np.int64)
    grid[hist[:, 0], hist[:, 1]] += 1
    grid[1:, :] += grid[:-1, :]  # ok
    cum = np.cumsum(hist[:, 2])
    cum[1:] -= cum[:-1]  # ok
    print("numpy history  ", hist[:, :2].tolist())
    print("torch mirror   ", mirror[:, :2].tolist())
    print("rewards ok     ", cum.tolist() == hist[:, 2].tolist())
    print("grid checksum  ", int(grid.sum()))


if __name__ == "__main__":
    main()
