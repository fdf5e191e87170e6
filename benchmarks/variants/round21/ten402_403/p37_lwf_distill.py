"""Learning without Forgetting (Li & Hoiem 2016): while training on a new task, distil the
outputs of the *old* model on the new inputs. The old model is evaluated with
torch.func.functional_call on a saved parameter dict."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)


def task(seed, shift):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(256, 6, generator=g) + shift
    return x, (x[:, :3] * torch.tensor([1.0, -1.0, 0.5])).argmax(1)


class LwF:
    def __init__(self, model, mode):
        self.model = model
        self.mode = mode
        if mode == "dict":
            self.old_params = dict(model.named_parameters())  # expect: TEN402
        elif mode == "module":
            self.old_model = model  # either: TEN402
        else:
            self.old_model = copy.deepcopy(model).eval()  # ok

    def old_logits(self, x):
        with torch.no_grad():
            if self.mode == "dict":
                return functional_call(self.model, self.old_params, (x,))
            return self.old_model(x)

    def loss(self, x, y, T=2.0, lam=3.0):
        logits = self.model(x)
        kd = F.kl_div(F.log_softmax(logits / T, 1), F.softmax(self.old_logits(x) / T, 1), reduction="batchmean")
        return F.cross_entropy(logits, y) + lam * kd


def run(mode):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
    old, new = task(1, 0.0), task(2, 1.5)
    new = (new[0], (new[0][:, 3:] * torch.tensor([1.0, 2.0, -1.0])).argmax(1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(80):
        opt.zero_grad()
        F.cross_entropy(model(old[0]), old[1]).backward()
        opt.step()
    lwf = LwF(model, mode)
    for _ in range(80):
        opt.zero_grad()
        lwf.loss(*new).backward()
        opt.step()
    with torch.no_grad():
        acc_old = (model(old[0]).argmax(1) == old[1]).float().mean().item()
        acc_new = (model(new[0]).argmax(1) == new[1]).float().mean().item()
    print(f"LwF old-model={mode:8s}: old-task acc={acc_old:.4f} new-task acc={acc_new:.4f}")


if __name__ == "__main__":
    for mode in ("dict", "module", "deepcopy"):
        run(mode)
