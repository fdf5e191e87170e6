"""set_grad_enabled / autocast / class-level trackers called as Class.method."""
import torch
from torch import nn


class Tracker:
    records = []

    @classmethod
    def log(cls, value):
        cls.records.append(value)  # expect: TEN501


class SafeTracker:
    records = []

    @classmethod
    def log(cls, value):
        cls.records.append(float(value))  # ok


class Stats:
    @staticmethod
    def push(store, value):
        store.append(value)  # expect: TEN501


def run_epoch(model, batches, opt, is_train):
    epoch_losses = []
    model.train(is_train)
    for x, y in batches:
        with torch.set_grad_enabled(is_train):
            loss = nn.functional.mse_loss(model(x), y)
        if is_train:
            opt.zero_grad()
            loss.backward()
            opt.step()
        epoch_losses.append(loss)  # expect: TEN501
    return epoch_losses


def eval_epoch(model, batches):
    outs = []
    with torch.set_grad_enabled(False):
        for x, _ in batches:
            outs.append(model(x))  # ok
    return outs


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    batches = [(x, x.mean(1, keepdim=True)) for x in torch.randn(5, 4, 3)]

    tr = run_epoch(model, batches, opt, is_train=True)
    va = run_epoch(model, batches, opt, is_train=False)
    ev = eval_epoch(model, batches)

    autocast_outs, autocast_ok, store, store_ok = [], [], [], []
    for x, y in batches:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            pred = model(x)
        loss = nn.functional.mse_loss(pred.float(), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        autocast_outs.append(pred)  # expect: TEN501
        autocast_ok.append(pred.float().detach())  # ok
        Tracker.log(loss)  # either: TEN501
        SafeTracker.log(loss)  # ok
        Stats.push(store, loss)  # either: TEN501
        Stats.push(store_ok, loss.item())  # ok

    print(len(tr), len(va), len(ev), len(autocast_outs), len(Tracker.records), round(SafeTracker.records[-1], 4), len(store))


if __name__ == "__main__":
    main()
