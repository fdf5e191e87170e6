"""LR range test, k-fold reset, AMP loop: more places a live state dict hides."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LRFinder:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.state_cache = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}  # expect: TEN402
        self.history = {"lr": [], "loss": []}

    def range_test(self, data, start_lr=1e-5, end_lr=1.0, num_iter=20):
        gamma = (end_lr / start_lr) ** (1 / num_iter)
        lr = start_lr
        for i in range(num_iter):
            x, y = data[i % len(data)]
            for g in self.optimizer.param_groups:
                g["lr"] = lr
            self.optimizer.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()
            self.history["lr"].append(lr)
            self.history["loss"].append(loss.item())
            lr *= gamma

    def reset(self):
        self.model.load_state_dict(self.state_cache["model"])
        self.optimizer.load_state_dict(self.state_cache["optimizer"])


def kfold(model_fn, folds, epochs=2):
    model = model_fn()
    init_state = model.state_dict()  # expect: TEN402
    scores = []
    for train_data, val_data in folds:
        model.load_state_dict(init_state)  # reset to the initial weights for every fold
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(epochs):
            for x, y in train_data:
                opt.zero_grad()
                F.mse_loss(model(x), y).backward()
                opt.step()
        with torch.no_grad():
            scores.append(sum(F.mse_loss(model(x), y).item() for x, y in val_data))
    return scores


def amp_loop(model, data, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    best, best_sd = float("inf"), None
    for epoch in range(epochs):
        for x, y in data:
            opt.zero_grad(set_to_none=True)
            with torch.autocast("cpu", enabled=False):
                loss = F.mse_loss(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        if loss.item() < best:
            best = loss.item()
            best_sd = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
    model.load_state_dict(best_sd)


if __name__ == "__main__":
    d = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    m = nn.Linear(3, 1)
    f = LRFinder(m, torch.optim.SGD(m.parameters(), lr=0.1))
    f.range_test(d)
    f.reset()
    print(kfold(lambda: nn.Linear(3, 1), [(d, d), (d, d)]))
    amp_loop(nn.Linear(3, 1), d)
