"""Entry point: python -m pkg_a.main"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

from .logging_utils import last, records  # noqa: E402
from .trainer import Trainer  # noqa: E402


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    y = (x[:, 0] > 0.3).long() + (x[:, 1] + x[:, 2] > 0).long()
    return [(x[i:i + 32], y[i:i + 32]) for i in range(0, n, 32)]


def main():
    train_batches, val_batches = make_data(256, 1), make_data(96, 2)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    trainer = Trainer(model)
    history, history_ok, val_history = [], [], []
    for epoch in range(3):
        epoch_loss = trainer.train_epoch(train_batches, epoch)
        history.append(epoch_loss)  # expect: TEN501
        history_ok.append(float(epoch_loss))  # ok
        val_loss, cm = trainer.validate(val_batches)
        val_history.append(val_loss)  # ok
        print(f"epoch {epoch}: train {history_ok[-1]:.4f} val {val_loss:.4f} val-acc {cm.diag().sum().item() / cm.sum().item():.3f}")
    print("loss history (tensors):", [round(h.item(), 4) for h in history])
    print("logged steps:", len(records("step")), "mean ce:", torch.stack(records("ce")).mean().item(),
          "last focal:", float(last("focal")))
    print("safe ce avg:", round(trainer.safe.avg("ce"), 4), "val logits kept:", len(trainer.val_logits))


if __name__ == "__main__":
    main()
