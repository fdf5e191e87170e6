"""In-memory checkpoint manager: `last` for resuming after a loss spike, `best` for export."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class CheckpointManager:
    def __init__(self, safe=False):
        self.safe = safe
        self.last = None
        self.last_step = None
        self.best = None
        self.best_metric = float("inf")

    def save_last(self, model, step):
        if self.safe:
            self.last = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        else:
            self.last = dict(model.state_dict())  # expect: TEN402
        self.last_step = step

    def save_best(self, model, metric):
        if not metric < self.best_metric:  # also rejects NaN
            return False
        self.best_metric = metric
        sd = model.state_dict()
        if self.safe:
            self.best = {k: v.clone() for k, v in sd.items()}  # ok
        else:
            self.best = sd.copy()  # expect: TEN402
        return True

    def resume(self, model):
        model.load_state_dict(self.last)
        return self.last_step


def run(safe):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(128, 4)
    y = x.sum(1, keepdim=True)
    ckpt = CheckpointManager(safe=safe)
    spike_seen = False
    for step in range(60):
        loss = F.mse_loss(model(x), y)
        ckpt.save_best(model, loss.item())
        if step % 10 == 0:
            ckpt.save_last(model, step)
        opt.zero_grad()
        loss.backward()
        if step == 45 and not spike_seen:
            # simulate a corrupted batch: a huge gradient
            for p in model.parameters():
                p.grad.mul_(2000.0)
            spike_seen = True
        opt.step()
        new_loss = F.mse_loss(model(x), y).item()
        if new_loss > 5 * loss.item():
            resumed = ckpt.resume(model)
            print(f"  safe={safe}: loss spike at step {step} ({new_loss:.2f}); "
                  f"resumed from step {resumed}, loss now {F.mse_loss(model(x), y).item():.4f}")
    best_model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    best_model.load_state_dict(ckpt.best)
    print(f"safe={safe}: best_metric={ckpt.best_metric:.4f} "
          f"best_model_loss={F.mse_loss(best_model(x), y).item():.4f} "
          f"final_loss={F.mse_loss(model(x), y).item():.4f}")


if __name__ == "__main__":
    run(safe=False)
    run(safe=True)
