import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class FeatureRecorder:
    """Registers a forward hook and keeps the activations it sees (e.g. for a later t-SNE plot)."""

    def __init__(self, module, detach):
        self.features = []
        self.detach = detach
        self.handle = module.register_forward_hook(self.hook)

    def hook(self, module, inputs, output):
        if self.detach:
            self.features.append(output.detach().cpu())  # ok
        else:
            self.features.append(output)  # expect: TEN501


def build():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 2))


def train(model, steps=8):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        x = torch.randn(20, 10)
        y = (x[:, 0] > x[:, 1]).long()
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


m1, m2 = build(), build()
rec_bad = FeatureRecorder(m1[2], detach=False)
rec_ok = FeatureRecorder(m2[2], detach=True)
print(round(train(m1), 4), round(train(m2), 4))
norms = [feat.norm().item() for feat in rec_ok.features]
print("recorded", len(rec_bad.features), len(rec_ok.features), "mean norm", round(sum(norms) / len(norms), 3))

counts = {"n": 0}
grad_norms = []
acts = []


def count_hook(module, inp, out):
    counts["n"] += out.shape[0]  # ok


def act_hook(module, inp, out):
    acts.append(out.mean())  # expect: TEN501


def grad_hook(module, grad_input, grad_output):
    grad_norms.append(grad_output[0].norm())  # ok


m3 = build()
m3[0].register_forward_hook(count_hook)
m3[2].register_forward_hook(act_hook)
m3[0].register_full_backward_hook(grad_hook)
print(round(train(m3), 4), counts["n"], round(sum(g.item() for g in grad_norms), 3))
