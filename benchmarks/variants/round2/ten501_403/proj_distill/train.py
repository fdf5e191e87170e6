import torch
import torch.nn as nn

from proj_distill.engine import AverageMeter, evaluate, train_one_epoch


def main(epochs=2):
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5))
    student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 5))
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    loader = [(torch.randn(8, 10), torch.randint(0, 5, (8,))) for _ in range(4)]
    meters = {"loss": AverageMeter(), "soft": AverageMeter()}
    epoch_soft = []
    for epoch in range(epochs):
        soft_total, outs = train_one_epoch(student, teacher, loader, opt, meters)
        epoch_soft.append(soft_total)  # ok
    print("soft meter sum grad_fn:", meters["soft"].sum.grad_fn, "outs:", outs[0].grad_fn,
          "epoch_soft:", epoch_soft[0].grad_fn, "eval:", evaluate(student, loader).grad_fn)


if __name__ == "__main__":
    main()
