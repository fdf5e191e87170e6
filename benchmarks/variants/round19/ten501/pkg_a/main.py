import torch
import torch.nn as nn

from . import utils
from .engine import evaluate, train_one_epoch
from .metrics import MetricLogger, NaiveMetricLogger


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 7))
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    loader = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]
    logger, naive = MetricLogger(), NaiveMetricLogger()
    epoch_store, eval_results, epoch_totals = [], [], []
    for epoch in range(3):
        total = train_one_epoch(model, opt, loader, epoch, logger, naive, epoch_store)
        epoch_totals.append(total)  # expect: TEN501
        evaluate(model, loader, eval_results)
    print(logger.meters["loss"].global_avg, float(naive.meters["loss"].global_avg), len(utils.registry()["loss_cls"]),
          sum(utils.registry()["loss_box"]), float(epoch_store[-1]["loss"]), utils.epoch_losses(), len(eval_results),
          float(sum(epoch_totals)))


if __name__ == "__main__":
    main()
