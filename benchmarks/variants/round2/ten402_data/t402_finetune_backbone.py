"""Fine-tuning: snapshot the pretrained backbone, train, restore it for the next head."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.head = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def finetune_per_task(model, tasks, epochs=2):
    """Full fine-tuning on each task, starting each time from the pretrained backbone."""
    pretrained = model.backbone.state_dict()  # expect: TEN402
    results = []
    for x, y in tasks:
        model.backbone.load_state_dict(pretrained)
        model.head.reset_parameters()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(epochs):
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
        results.append(F.cross_entropy(model(x), y).item())
    return results


def linear_probe_then_unfreeze(model, x, y):
    backbone_sd = OrderedDict((k, v) for k, v in model.backbone.state_dict().items())  # expect: TEN402
    for p in model.backbone.parameters():
        p.requires_grad_(False)
    head_opt = torch.optim.Adam(model.head.parameters(), lr=1e-2)
    for _ in range(3):
        head_opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        head_opt.step()
    for p in model.backbone.parameters():
        p.requires_grad_(True)
    full_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(3):
        full_opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        full_opt.step()
    # compare drift of the backbone from the pretrained weights
    drift = sum((model.backbone.state_dict()[k].float() - v.float()).norm() for k, v in backbone_sd.items())
    return drift


def frozen_backbone_eval_mode(model, x, y):
    """Backbone frozen and in eval mode: its weights never change, so the snapshot stays valid."""
    frozen = model.backbone.state_dict()  # either
    model.backbone.eval()
    for p in model.backbone.parameters():
        p.requires_grad_(False)
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad()
        F.cross_entropy(model.head(model.backbone(x)), y).backward()
        opt.step()
    model.backbone.load_state_dict(frozen)


def finetune_ok(model, tasks):
    pretrained = copy.deepcopy(model.backbone.state_dict())  # ok
    for x, y in tasks:
        model.backbone.load_state_dict(pretrained)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    m = Classifier(3)
    ref = {k: v.clone() for k, v in m.backbone.state_dict().items()}
    tasks = [(torch.randn(16, 8), torch.randint(0, 3, (16,))) for _ in range(2)]
    finetune_per_task(m, tasks)
    # after the last task the backbone differs from the pretrained one, and the snapshot followed it
    print("backbone still pretrained?", all(torch.equal(v, ref[k]) for k, v in m.backbone.state_dict().items()))
    m2 = Classifier(3)
    print("drift measured against live snapshot:", float(linear_probe_then_unfreeze(m2, *tasks[0])))
