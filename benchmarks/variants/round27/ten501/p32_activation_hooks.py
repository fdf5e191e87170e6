"""Forward hooks that record activations for dead-unit / saturation statistics."""
from collections import defaultdict
import torch
import torch.nn as nn

torch.manual_seed(0)


class ActivationRecorder:
    def __init__(self, model, detach):
        self.acts = defaultdict(list)
        self.detach = detach
        self.handles = []
        for name, mod in model.named_modules():
            if isinstance(mod, nn.ReLU):
                self.handles.append(mod.register_forward_hook(self._hook(name)))

    def _hook(self, name):
        if self.detach:
            def hook(module, inputs, output):
                self.acts[name].append(output.detach())  # ok
        else:
            def hook(module, inputs, output):
                self.acts[name].append(output)  # expect: TEN501
        return hook

    def dead_fraction(self):
        return {k: torch.stack([(a == 0).float().mean() for a in v]).mean().item() for k, v in self.acts.items()}


for detach in (False, True):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
    rec = ActivationRecorder(model, detach)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    grad_norm_log = []
    for step in range(6):
        x = torch.randn(10, 5)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        grad_norm_log.append(torch.stack([p.grad.norm() for p in model.parameters()]).norm())  # ok
        opt.step()
    print("detach" if detach else "raw", rec.dead_fraction(), round(grad_norm_log[-1].item(), 4))
