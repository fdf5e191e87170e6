"""An `accelerate`-shaped loop written by hand for a single CPU process."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Accelerator:
    """Single-process stand-in exposing the handful of methods the script uses."""

    def __init__(self, log_with=None):
        self.is_main_process = True
        self.num_processes = 1
        self.trackers = defaultdict(list) if log_with else None

    def prepare(self, *objs):
        return objs

    def backward(self, loss):
        loss.backward()

    def gather(self, tensor):
        # all_gather on one rank is the identity
        return tensor

    def log(self, values, step=None):
        if self.trackers is None:
            return
        for k, v in values.items():
            self.trackers[k].append((step, v))

    def print(self, *args):
        if self.is_main_process:
            print(*args)


def get_data(n=200, d=8, classes=4, bs=25):
    x = torch.randn(n, d)
    y = (x @ torch.randn(d, classes)).argmax(-1)
    split = int(0.8 * n)
    return (list(zip(x[:split].split(bs), y[:split].split(bs))),
            list(zip(x[split:].split(bs), y[split:].split(bs))))


def main(num_epochs=2):
    torch.manual_seed(0)
    accelerator = Accelerator(log_with="memory")
    train_dl, eval_dl = get_data()
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    model, optimizer, train_dl, eval_dl = accelerator.prepare(model, optimizer, train_dl, eval_dl)
    gathered_losses = []
    step = 0
    for epoch in range(num_epochs):
        model.train()
        total_loss = 0
        for xb, yb in train_dl:
            loss = F.cross_entropy(model(xb), yb)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            total_loss += loss.detach().float()  # ok
            gathered_losses.append(accelerator.gather(loss))  # expect: TEN501
            accelerator.log({"train_loss": loss}, step=step)  # expect: TEN501
            step += 1
        model.eval()
        all_preds, all_refs = [], []
        for xb, yb in eval_dl:
            with torch.no_grad():
                logits = model(xb)
            all_preds.append(accelerator.gather(logits.argmax(dim=-1)))  # ok
            all_refs.append(accelerator.gather(yb))  # ok
        acc = (torch.cat(all_preds) == torch.cat(all_refs)).float().mean().item()
        accelerator.log({"epoch_loss": total_loss.item() / len(train_dl), "eval_acc": acc}, step=epoch)  # ok
        accelerator.print(f"epoch {epoch}: loss {total_loss.item() / len(train_dl):.4f} acc {acc:.3f}")
    accelerator.print("gathered", len(gathered_losses), "tracked keys", sorted(accelerator.trackers))


if __name__ == "__main__":
    main()
