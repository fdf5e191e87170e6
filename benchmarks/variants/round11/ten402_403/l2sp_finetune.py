import argparse

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector


def build_backbone():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.GELU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.GELU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


def l2sp_penalty(params, anchors):
    # L2-SP: pull fine-tuned weights back towards the pre-trained starting point
    return sum(((p - a) ** 2).sum() for p, a in zip(params, anchors))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--alpha", type=float, default=1e-2)
    ap.add_argument("--beta", type=float, default=1e-4)
    ap.add_argument("--steps", type=int, default=300)
    args = ap.parse_args(argv)

    backbone = build_backbone()
    # pretend we loaded ImageNet weights here
    head = nn.Linear(32, 5)
    anchor = [p.detach() for p in backbone.parameters()]  # expect: TEN402
    head_start = parameters_to_vector(head.parameters())  # ok

    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=1e-2, momentum=0.9)
    for step in range(args.steps):
        x = torch.randn(16, 3, 64, 64)
        y = torch.randint(0, 5, (16,))
        logits = head(backbone(x))
        loss = nn.functional.cross_entropy(logits, y)
        loss = loss + args.alpha / 2 * l2sp_penalty(list(backbone.parameters()), anchor)
        loss = loss + args.beta / 2 * sum((p ** 2).sum() for p in head.parameters())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 100 == 0:
            moved = (parameters_to_vector(head.parameters()) - head_start).norm().item()
            print(step, loss.item(), moved)


if __name__ == "__main__":
    main()
