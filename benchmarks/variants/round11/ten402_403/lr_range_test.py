"""Learning-rate range test: sweep the LR exponentially, then put everything back."""
import copy

import torch
import torch.nn as nn


class LRFinder:
    def __init__(self, model, optimizer, criterion):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion

    def range_test(self, batches, start_lr=1e-7, end_lr=10.0, num_iter=100):
        model_state = self.model.state_dict()  # expect: TEN402
        optim_state = self.optimizer.state_dict()  # expect: TEN402
        gamma = (end_lr / start_lr) ** (1 / num_iter)
        lr = start_lr
        lrs, losses = [], []
        best = float("inf")
        for i, (x, y) in zip(range(num_iter), batches):
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            lrs.append(lr)
            losses.append(loss.item())
            best = min(best, loss.item())
            if loss.item() > 4 * best:
                break
            lr *= gamma
        # undo the damage done by the sweep
        self.model.load_state_dict(model_state)
        self.optimizer.load_state_dict(optim_state)
        return lrs, losses


def batches_forever():
    while True:
        x = torch.randn(64, 20)
        yield x, (x[:, :1] > 0).long().squeeze(1)


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(20, 50), nn.ReLU(), nn.Linear(50, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    # warm up a little so that the optimizer already has moment buffers
    for _, (x, y) in zip(range(20), batches_forever()):
        opt.zero_grad()
        nn.functional.cross_entropy(net(x), y).backward()
        opt.step()
    backup = copy.deepcopy(opt.state_dict())  # ok
    finder = LRFinder(net, opt, nn.CrossEntropyLoss())
    lrs, losses = finder.range_test(batches_forever())
    print(len(lrs), min(losses))
