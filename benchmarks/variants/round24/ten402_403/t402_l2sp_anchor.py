"""L2-SP fine-tuning: penalise distance from the pretrained starting point."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class L2SP(nn.Module):
    def __init__(self, model, alpha=1.0):
        super().__init__()
        self.alpha = alpha
        self.anchor = [p.data for p in model.parameters()]  # expect: TEN402

    def forward(self, model):
        return self.alpha * sum(((p - a) ** 2).sum() for p, a in zip(model.parameters(), self.anchor))


class L2SPCloned(L2SP):
    def __init__(self, model, alpha=1.0):
        nn.Module.__init__(self)
        self.alpha = alpha
        self.anchor = [p.detach().clone() for p in model.parameters()]  # ok


def finetune(reg_cls):
    torch.manual_seed(2)
    backbone = nn.Linear(6, 6)
    reg = reg_cls(backbone, alpha=0.5)
    opt = torch.optim.SGD(backbone.parameters(), lr=0.05)
    x = torch.randn(30, 6)
    y = torch.randn(30, 6) * 3
    for _ in range(30):
        task = nn.functional.mse_loss(backbone(x), y)
        pen = reg(backbone)
        opt.zero_grad()
        (task + pen).backward()
        opt.step()
    return task.item(), reg(backbone).item()


if __name__ == "__main__":
    for cls in (L2SP, L2SPCloned):
        t, p = finetune(cls)
        print(f"{cls.__name__}: task {t:.6f} penalty {p:.6f}")
