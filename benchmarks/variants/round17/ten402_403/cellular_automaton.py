"""Elementary cellular automata on a batch of boolean rows."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def rule102_inplace(g):
    g[:, 1:] ^= g[:, :-1]  # expect: TEN403
    return g


def rule102_rebuilt(g):
    g[:, 1:] = g[:, 1:] ^ g[:, :-1]  # ok
    return g


def rule90(g):
    g[:, 1:-1] = g[:, :-2] ^ g[:, 2:]  # ok
    return g


def rule90_rolled(g):
    return torch.roll(g, 1, 1) ^ torch.roll(g, -1, 1)  # ok


def run(step, gens=30):
    g = torch.zeros(3, 65, dtype=torch.bool)
    g[:, 32] = True  # ok
    g[1, ::7] = True  # ok
    alive = []
    for _ in range(gens):
        g = step(g)
        alive.append(int(g.sum()))
    return alive[-5:]


if __name__ == "__main__":
    for fn in (rule102_inplace, rule102_rebuilt, rule90, rule90_rolled):
        print(f"{fn.__name__:>16}", run(fn))
