"""L2-SP fine-tuning: penalize distance to the pre-trained starting point."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.backbone(x))


class L2SP(nn.Module):
    def __init__(self, model, alpha=0.1, beta=0.01):
        super().__init__()
        self.alpha, self.beta = alpha, beta
        self.source_weights = {name: p.data for name, p in model.named_parameters() if not name.startswith("head")}  # expect: TEN402

    def forward(self, model):
        sp, l2 = 0.0, 0.0
        for name, p in model.named_parameters():
            if name in self.source_weights:
                sp = sp + (p - self.source_weights[name]).pow(2).sum()
            else:
                l2 = l2 + p.pow(2).sum()
        return self.alpha / 2 * sp + self.beta / 2 * l2


class L2SPBuffers(nn.Module):
    """Same regularizer, anchors kept as registered buffers."""

    def __init__(self, model, alpha=0.1, beta=0.01):
        super().__init__()
        self.alpha, self.beta = alpha, beta
        self.names = []
        for name, p in model.named_parameters():
            if name.startswith("head"):
                continue
            key = name.replace(".", "_")
            self.register_buffer(key, p.detach().clone())  # ok
            self.names.append((name, key))

    def forward(self, model):
        params = dict(model.named_parameters())
        sp = sum((params[n] - getattr(self, k)).pow(2).sum() for n, k in self.names)
        l2 = params["head.weight"].pow(2).sum() + params["head.bias"].pow(2).sum()
        return self.alpha / 2 * sp + self.beta / 2 * l2


def finetune(reg_cls, steps=25):
    torch.manual_seed(1)
    model = Net()
    reg = reg_cls(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
    for _ in range(steps):
        opt.zero_grad()
        task = F.cross_entropy(model(x), y)
        penalty = reg(model)
        (task + penalty).backward()
        opt.step()
    return penalty.item()


if __name__ == "__main__":
    print("dict anchors   penalty", finetune(L2SP))
    print("buffer anchors penalty", finetune(L2SPBuffers))
