"""A recurrent state shift where the source view is bound to a name first."""
import torch

torch.manual_seed(0)


class DelayState:
    def __init__(self, batch, steps, cloned):
        self.state = torch.zeros(batch, steps)
        self.cloned = cloned

    def step(self, x):
        if self.cloned:
            prev = self.state[:, :-1].clone()
            self.state[:, 1:] = prev  # ok
        else:
            prev = self.state[:, :-1]
            self.state[:, 1:] = prev  # expect: TEN403
        self.state[:, 0] = x
        return self.state.mean(dim=1)


inputs = torch.randn(7, 2)
for cloned in (False, True):
    ds = DelayState(2, 4, cloned)
    for x in inputs:
        out = ds.step(x)
    print("cloned=%s state:" % cloned, [round(v, 4) for v in ds.state.flatten().tolist()])
