"""Forward hooks that collect activation statistics during training."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class ActivationStats:
    def __init__(self, model):
        self.means, self.stds, self.rms = {}, {}, {}
        self.handles = []
        for name, m in model.named_modules():
            if isinstance(m, nn.ReLU):
                self.handles.append(m.register_forward_hook(self._hook(name)))

    def _hook(self, name):
        def hook(module, inp, out):
            self.means.setdefault(name, []).append(out.mean())  # expect: TEN501
            self.stds.setdefault(name, []).append(out.std().item())  # ok
            self.rms.setdefault(name, []).append(out.pow(2).mean().sqrt())  # expect: TEN501
            self.dead_frac = (out == 0).float().mean()  # ok
        return hook

    def remove(self):
        for h in self.handles:
            h.remove()


features = {}


def save_feature(name):
    def hook(module, inp, out):
        features[name] = out.detach()  # ok
    return hook


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
stats = ActivationStats(model)
model[2].register_forward_hook(save_feature("fc2"))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(6):
    x = torch.randn(32, 6)
    loss = (model(x).squeeze(1) - x[:, 0]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
stats.remove()
print({k: round(torch.stack(v).mean().item(), 4) for k, v in stats.means.items()})
print({k: round(sum(v) / len(v), 4) for k, v in stats.stds.items()}, features["fc2"].shape)
