"""Fine-tuning with an L2-SP penalty that pulls weights toward the pretrained point."""
import io

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class L2SP:
    def __init__(self, backbone, alpha, share):
        self.alpha = alpha
        if share:
            self.anchor = {n: p.detach() for n, p in backbone.named_parameters()}  # expect: TEN402
        else:
            self.anchor = {n: p.detach().clone() for n, p in backbone.named_parameters()}  # ok

    def __call__(self, backbone):
        return self.alpha * sum(((p - self.anchor[n]) ** 2).sum() for n, p in backbone.named_parameters())


def pretrain(backbone, head):
    opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-2)
    x = torch.randn(200, 6)
    y = x[:, :2].sum(1, keepdim=True)
    for _ in range(40):
        opt.zero_grad()
        nn.functional.mse_loss(head(backbone(x)), y).backward()
        opt.step()


def finetune(share):
    torch.manual_seed(0)
    backbone = nn.Sequential(nn.Linear(6, 24), nn.GELU())
    pretrain(backbone, nn.Linear(24, 1))
    archive = io.BytesIO()
    pretrained_sd = backbone.state_dict()  # ok
    torch.save(pretrained_sd, archive)
    reg = L2SP(backbone, alpha=0.5, share=share)
    head = nn.Linear(24, 1)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.05)
    x = torch.randn(20, 6)
    y = (x[:, 3:4] - x[:, 4:5]).tanh()
    pen = torch.tensor(0.0)
    for _ in range(30):
        opt.zero_grad()
        pen = reg(backbone)
        (nn.functional.mse_loss(head(backbone(x)), y) + pen).backward()
        opt.step()
    archive.seek(0)
    original = torch.load(archive)  # ok
    moved = sum((original[k] - v).norm() for k, v in backbone.state_dict().items())
    return pen.item(), moved.item()


if __name__ == "__main__":
    for share in (True, False):
        pen, moved = finetune(share)
        print(f"share={share}: last penalty {pen:.5f}, distance from pretrained {moved:.4f}")
