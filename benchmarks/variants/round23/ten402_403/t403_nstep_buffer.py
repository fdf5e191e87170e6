"""n-step return accumulator that keeps the most recent rewards first."""
import torch


class NStepBuffer:
    def __init__(self, n, gamma):
        self.rewards = torch.zeros(n)
        self.discounts = gamma ** torch.arange(n, dtype=torch.float32)

    def add(self, r):
        self.rewards[1:] = self.rewards[:-1]  # expect: TEN403
        self.rewards[0] = r

    def nstep_return(self):
        return float((self.rewards.flip(0) * self.discounts).sum())


class ClonedNStepBuffer(NStepBuffer):
    def add(self, r):
        self.rewards[1:] = self.rewards[:-1].clone()  # ok
        self.rewards[0] = r


torch.manual_seed(0)
rewards = torch.randn(6)
for cls in (NStepBuffer, ClonedNStepBuffer):
    buf = cls(4, 0.9)
    try:
        for r in rewards:
            buf.add(r)
        print(cls.__name__, "buffer:", [round(v, 4) for v in buf.rewards.tolist()],
              "G=%.4f" % buf.nstep_return())
    except RuntimeError as e:
        print(cls.__name__, "RuntimeError:", str(e).split(".")[0])
