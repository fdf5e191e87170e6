"""Module-level registries and class-level containers used as global loggers."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS_LOG = []
SCALAR_LOG = []
RUNNING = {"sum": 0.0, "n": 0}


def record(x):
    LOSS_LOG.append(x)


def record_scalar(x):
    SCALAR_LOG.append(float(x))


def accumulate(x):
    RUNNING["sum"] = RUNNING["sum"] + x
    RUNNING["n"] += 1


class Stats:
    values = []
    counts = []

    @classmethod
    def push(cls, v):
        cls.values.append(v)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(5):
        x, y = torch.randn(8, 4), torch.randint(0, 3, (8,))
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        record(loss)  # expect: TEN501
        record_scalar(loss)  # ok
        accumulate(loss)  # expect: TEN501
        Stats.push(logits.max())  # expect: TEN501
        Stats.push(logits.max().item())  # ok
        Stats.counts.append(int((logits.argmax(1) == y).sum()))  # ok
    print(len(LOSS_LOG), sum(SCALAR_LOG), float(RUNNING["sum"]) / RUNNING["n"], len(Stats.values), sum(Stats.counts))


if __name__ == "__main__":
    main()
