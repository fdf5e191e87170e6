"""Rolling history of hidden states for a recurrent critic; the view is named first."""
import torch
import torch.nn as nn


class HistoryCritic(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.inp = nn.Linear(d, d)
        self.out = nn.Linear(d * h, 1)
        self.register_buffer("hist", torch.zeros(1, h, d))

    def reset(self, batch):
        self.hist = torch.zeros(batch, self.h, self.hist.shape[-1])

    def forward(self, x, safe=False):
        if safe:
            older = self.hist[:, :-1].clone()  # ok
        else:
            older = self.hist[:, :-1]
        self.hist[:, 1:] = older  # expect: TEN403
        self.hist[:, 0] = torch.tanh(self.inp(x))  # ok
        return self.out(self.hist.flatten(1))


torch.manual_seed(0)
crit = HistoryCritic(4, 5)
xs = torch.randn(8, 3, 4)
for safe in (False, True):
    crit.reset(3)
    with torch.no_grad():
        vals = [crit(x, safe).squeeze(1) for x in xs]
    print("safe" if safe else "view", "values", [round(v, 5) for v in torch.stack(vals)[-1].tolist()])
