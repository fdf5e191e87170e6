"""Fine-tuning a pretrained backbone with an L2-SP penalty; the head is reset per seed."""
import copy

import torch
from torch import nn

torch.manual_seed(0)

backbone = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
head = nn.Linear(16, 3)

# "pretraining" on a source task
src_x = torch.randn(256, 8)
src_y = (src_x[:, :3] @ torch.tensor([1.0, 2.0, -1.0])).gt(0).long() + src_x[:, 3].gt(1).long()
opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-2)
for _ in range(60):
    opt.zero_grad()
    nn.functional.cross_entropy(head(backbone(src_x)), src_y).backward()
    opt.step()

pretrained = dict(backbone.state_dict())  # expect: TEN402
head_init = copy.copy(head.state_dict())  # expect: TEN402
pretrained_ref = {k: v.detach().clone() for k, v in backbone.state_dict().items()}  # ok


def l2sp(module, ref, alpha):
    return alpha * sum(((p - ref[n]) ** 2).sum() for n, p in module.named_parameters())


tgt_x = torch.randn(40, 8)
tgt_y = (tgt_x[:, 4] > 0).long() * 2
for seed in range(2):
    torch.manual_seed(100 + seed)
    backbone.load_state_dict(pretrained)
    head.load_state_dict(head_init)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1)
    for _ in range(30):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(head(backbone(tgt_x)), tgt_y)
        (loss + l2sp(backbone, pretrained, 0.05)).backward()
        opt.step()
    with torch.no_grad():
        print(f"seed {seed}: target loss {loss.item():.5f}, "
              f"L2-SP term {l2sp(backbone, pretrained, 0.05).item():.5f}, "
              f"distance to pretrained {l2sp(backbone, pretrained_ref, 1.0).item():.5f}, "
              f"head bias {[round(v, 4) for v in head.bias.tolist()]}")
