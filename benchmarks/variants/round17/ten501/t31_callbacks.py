"""Keras-like callback list driven by a small fit loop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_batch_end(self, step, logs):
        pass

    def on_epoch_end(self, epoch, logs):
        pass


class LossHistory(Callback):
    def __init__(self):
        self.losses = []

    def on_batch_end(self, step, logs):
        self.losses.append(logs["loss"])


class PrintEvery(Callback):
    def __init__(self, every):
        self.every = every
        self.last = None

    def on_batch_end(self, step, logs):
        self.last = float(logs["loss"])
        if step % self.every == 0:
            print(f"step {step}: {self.last:.4f}")


class EpochAverages(Callback):
    def __init__(self):
        self.averages = []

    def on_epoch_end(self, epoch, logs):
        self.averages.append(logs["mean_loss"])


def fit(model, data, callbacks, epochs=2, detach_logs=False):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step = 0
    for epoch in range(epochs):
        batch_losses = []
        for x, y in data:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            batch_losses.append(loss.item())  # ok
            if detach_logs:
                logs = {"loss": loss.detach(), "lr": opt.param_groups[0]["lr"]}
                for cb in callbacks:
                    cb.on_batch_end(step, logs)  # ok
            else:
                logs = {"loss": loss, "lr": opt.param_groups[0]["lr"]}
                for cb in callbacks:
                    cb.on_batch_end(step, logs)  # expect: TEN501
            step += 1
        for cb in callbacks:
            cb.on_epoch_end(epoch, {"mean_loss": sum(batch_losses) / len(batch_losses)})  # ok


data = [(torch.randn(6, 4), torch.randn(6, 1)) for _ in range(4)]
hist_a = LossHistory()
fit(nn.Linear(4, 1), data, [hist_a, PrintEvery(4), EpochAverages()])
hist_b, avgs_b = LossHistory(), EpochAverages()
fit(nn.Linear(4, 1), data, [hist_b, PrintEvery(4), avgs_b], detach_logs=True)
print(len(hist_a.losses), avgs_b.averages)
