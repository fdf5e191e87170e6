import torch
import torch.nn as nn

torch.manual_seed(0)

B, K, D = 3, 4, 2
policy = nn.Linear(K * D, 2)


class ObsHistory:
    def __init__(self):
        self.hist = torch.zeros(B, K, D)

    def update(self, obs):
        flat = self.hist.view(B, -1)
        flat[:, D:] = flat[:, :-D]  # expect: TEN403
        flat[:, :D] = obs  # ok
        return self.hist


class ObsHistoryCat(ObsHistory):
    def update(self, obs):
        flat = self.hist.view(B, -1)
        flat[:, :] = torch.cat([obs, flat[:, :-D]], 1)  # ok
        return self.hist


for cls in (ObsHistory, ObsHistoryCat):
    torch.manual_seed(0)
    hb = cls()
    with torch.no_grad():
        for t in range(6):
            hh = hb.update(torch.randn(B, D))
            logits = policy(hh.view(B, -1))
    print(cls.__name__, "logits", [round(v, 4) for v in logits.flatten().tolist()])
