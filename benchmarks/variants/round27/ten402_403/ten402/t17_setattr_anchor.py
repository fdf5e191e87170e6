"""Fine-tuning with an L2-SP penalty towards the pretrained weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class L2SP(nn.Module):
    def __init__(self, model, alpha, copy_anchor):
        super().__init__()
        self.model = model
        self.alpha = alpha
        self.names = []
        for name, p in model.named_parameters():
            key = name.replace(".", "_") + "_anchor"
            if copy_anchor:
                setattr(self, key, p.detach().clone())  # ok
            else:
                setattr(self, key, p.detach())  # expect: TEN402
            self.names.append((name, key))

    def penalty(self):
        params = dict(self.model.named_parameters())
        return sum(((params[n] - getattr(self, k)) ** 2).sum() for n, k in self.names)


for copy_anchor in (False, True):
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(6, 6), nn.ReLU(), nn.Linear(6, 2))
    reg = L2SP(backbone, alpha=0.5, copy_anchor=copy_anchor)
    X, Y = torch.randn(50, 6), torch.randn(50, 2)
    opt = torch.optim.SGD(backbone.parameters(), lr=0.1)
    for it in range(20):
        opt.zero_grad()
        task = nn.functional.mse_loss(backbone(X), Y)
        pen = reg.penalty()
        (task + reg.alpha * pen).backward()
        opt.step()
    print(f"copy_anchor={copy_anchor} task {task.item():.5f} penalty {pen.item():.6f}")
