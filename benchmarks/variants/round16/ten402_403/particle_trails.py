"""Particles on a spring field; each keeps a fading trail of its last positions."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

TRAIL = 5


class TrailsV1:
    def __init__(self, n):
        self.tx = torch.zeros(n, TRAIL)
        self.ty = torch.zeros(n, TRAIL)
        self.age = torch.zeros(n, TRAIL)
        self.steps = 0

    def record(self, x, y):
        self.tx[:, 1:], self.ty[:, 1:] = self.tx[:, :-1], self.ty[:, :-1]  # expect: TEN403
        self.tx[:, 0], self.ty[:, 0] = x, y  # ok
        self.age[:, 1:], self.steps = self.age[:, :-1] + 1, self.steps + 1  # ok


class TrailsV2(TrailsV1):
    def record(self, x, y):
        self.tx[:, 1:], self.ty[:, 1:] = self.tx[:, :-1].clone(), self.ty[:, :-1].clone()  # ok
        self.tx[:, 0], self.ty[:, 0] = x, y  # ok
        self.age[:, 1:], self.steps = self.age[:, :-1], self.steps + 1  # expect: TEN403


def simulate(trails_cls, n=4, steps=12, dt=0.1):
    torch.manual_seed(3)
    pos = torch.randn(n, 2)
    vel = torch.randn(n, 2)
    trails = trails_cls(n)
    for _ in range(steps):
        vel = vel - dt * pos
        vel[:, 0], vel[:, 1] = vel[:, 1], -vel[:, 0]  # ok
        pos = pos + dt * vel
        trails.record(pos[:, 0], pos[:, 1])
    return trails


def main():
    a, b = simulate(TrailsV1), simulate(TrailsV2)
    print("trail x of particle 0 (in place):", [round(v, 3) for v in a.tx[0].tolist()])
    print("trail x of particle 0 (cloned):  ", [round(v, 3) for v in b.tx[0].tolist()])
    print("ages:", a.age[0].tolist(), b.age[0].tolist())


if __name__ == "__main__":
    main()
