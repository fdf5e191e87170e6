"""Fine-tuning with the L2-SP penalty (Li et al., 2018): pull the backbone
towards the pretrained starting point instead of towards zero."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, d_in=16, d_hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.Tanh(),
                                 nn.Linear(d_hidden, d_hidden), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class L2SP:
    def __init__(self, backbone, head, alpha=0.1, beta=0.01):
        self.alpha = alpha
        self.beta = beta
        self.anchor = [p.detach() for p in backbone.parameters()]  # expect: TEN402
        self.head_init = [p.detach().clone() for p in head.parameters()]  # ok

    def penalty(self, backbone, head):
        sp = sum(((p - a) ** 2).sum() for p, a in zip(backbone.parameters(), self.anchor))
        l2 = sum((p ** 2).sum() for p in head.parameters())
        return 0.5 * self.alpha * sp + 0.5 * self.beta * l2

    @torch.no_grad()
    def head_drift(self, head):
        return sum((p - p0).norm().item() for p, p0 in zip(head.parameters(), self.head_init))


def finetune(backbone, head, x, y, steps=50, lr=0.05):
    reg = L2SP(backbone, head)
    params = list(backbone.parameters()) + list(head.parameters())
    opt = torch.optim.SGD(params, lr=lr, momentum=0.9)
    for step in range(steps):
        opt.zero_grad()
        logits = head(backbone(x))
        task = F.cross_entropy(logits, y)
        pen = reg.penalty(backbone, head)
        (task + pen).backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step:3d} task {task.item():.4f} l2sp {pen.item():.5f}")
    return reg


if __name__ == "__main__":
    torch.manual_seed(0)
    bb = Backbone()
    hd = nn.Linear(32, 4)
    x = torch.randn(64, 16)
    y = torch.randint(0, 4, (64,))
    r = finetune(bb, hd, x, y)
    sp = sum(((p - a) ** 2).sum() for p, a in zip(bb.parameters(), r.anchor)).item()
    print(f"backbone distance to anchor after fine-tuning: {sp:.6f}; head drift {r.head_drift(hd):.3f}")
