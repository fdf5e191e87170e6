"""A model that returns a dict; loss terms travel around as a dict as well."""
from collections import defaultdict

import torch
import torch.nn.functional as F
from torch import nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(5, 16), nn.GELU())
        self.head = nn.Linear(16, 4)

    def forward(self, x, y):
        feats = self.body(x)
        logits = self.head(feats)
        out = {"logits": logits, "feats": feats}
        out["ce"] = F.cross_entropy(logits, y)
        out["reg"] = 1e-3 * feats.pow(2).mean()
        out["loss"] = out["ce"] + out["reg"]
        with torch.no_grad():
            out["acc"] = (logits.argmax(-1) == y).float().mean()
        return out


def compute_terms(out):
    return {"ce": out["ce"], "reg": out["reg"]}


torch.manual_seed(0)
net = Classifier()
opt = torch.optim.AdamW(net.parameters(), lr=5e-3)
batches = [(torch.randn(10, 5), torch.randint(0, 4, (10,))) for _ in range(6)]

log = []
log_scalars = []
sums = defaultdict(float)
sums_f = defaultdict(float)
logit_bank = []
acc_hist = []
step_outputs = []

for epoch in range(2):
    for x, y in batches:
        out = net(x, y)
        opt.zero_grad()
        out["loss"].backward()
        opt.step()

        terms = compute_terms(out)
        log.append(terms)  # expect: TEN501
        log_scalars.append({k: v.item() for k, v in terms.items()})  # ok
        for k, v in terms.items():
            sums[k] += v  # expect: TEN501
            sums_f[k] += v.item()  # ok
        logit_bank.append(out["logits"])  # expect: TEN501
        acc_hist.append(out["acc"])  # ok
        step_outputs.append({k: v.detach() for k, v in out.items()})  # ok

print({k: round(float(v), 4) for k, v in sums_f.items()}, len(log), len(logit_bank))
print(float(sum(acc_hist)) / len(acc_hist), len(step_outputs), float(sums["ce"].detach()))
