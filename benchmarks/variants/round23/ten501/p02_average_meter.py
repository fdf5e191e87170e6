"""Classic AverageMeter used for train/val bookkeeping."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AverageMeter:
    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.val = 0
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def validate(model, batches, meter):
    model.eval()
    with torch.no_grad():
        for x, y in batches:
            val_loss = F.mse_loss(model(x), y)
            meter.update(val_loss, x.size(0))  # ok
    model.train()


def main():
    torch.manual_seed(0)
    model = nn.Linear(6, 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train = [(torch.randn(5, 6), torch.randn(5, 1)) for _ in range(4)]
    loss_meter = AverageMeter("loss")
    err_meter = AverageMeter("abs_err")
    gnorm_meter = AverageMeter("grad_norm")
    val_meter = AverageMeter("val")
    for epoch in range(2):
        for x, y in train:
            pred = model(x)
            loss = F.mse_loss(pred, y)
            opt.zero_grad()
            loss.backward()
            total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            loss_meter.update(loss, x.size(0))  # expect: TEN501
            err_meter.update((pred - y).abs().mean().item(), x.size(0))  # ok
            gnorm_meter.update(total_norm)  # ok
        validate(model, train[:2], val_meter)
    print(f"{loss_meter.avg.item():.4f} {err_meter.avg:.4f} {float(gnorm_meter.avg):.3f} {float(val_meter.avg):.4f}")


if __name__ == "__main__":
    main()
