"""Entry point: python -m pkg_trainer.main"""
import torch
import torch.nn as nn

from pkg_trainer.callbacks import BestKeeper, LossLogger
from pkg_trainer.engine import evaluate, train_one_epoch
from pkg_trainer.meters import AverageMeter, MetricHistory, make_step_recorder


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Flatten(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train_loader = [(torch.randn(6, 4, 4), torch.randint(0, 4, (6,))) for _ in range(3)]
    val_loader = [(torch.randn(6, 4, 4), torch.randint(0, 4, (6,))) for _ in range(2)]

    meter = AverageMeter("loss")
    history = MetricHistory()
    callbacks = (LossLogger(), BestKeeper())
    recorder = make_step_recorder()
    epoch_results = []
    epoch_results_clean = []
    val_results = []
    val_losses = []
    for epoch in range(2):
        train_loss = train_one_epoch(model, train_loader, optimizer, epoch, meter, history, callbacks,
                                     recorder, step0=epoch * len(train_loader))
        epoch_results.append(train_loss)  # expect: TEN501
        epoch_results_clean.append(train_loss.item())  # ok
        val_loss, val_acc = evaluate(model, val_loader)
        val_losses.append(val_loss)  # ok
        val_results.append({"epoch": epoch, "val_loss": val_loss.item(), "acc": val_acc})  # ok
        print(f"epoch {epoch}: train {epoch_results_clean[-1]:.4f} val {val_results[-1]['val_loss']:.4f} "
              f"acc {val_acc:.2f} best {callbacks[1].best:.4f}")


if __name__ == "__main__":
    main()
