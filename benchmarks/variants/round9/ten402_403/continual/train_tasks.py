"""Sequential training over a list of tasks with an optional EWC penalty, plus an
L2-SP fine-tuning entry point.

    python -m continual.train_tasks --method ewc --lam 5000
"""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

from .regularizers import EWC, L2SP
from .utils import parameter_change, params_of, snapshot, task_accuracy

log = logging.getLogger("continual")


def train_task(model, loader, device, epochs, lr, penalties=(), lam=0.0):
    optimizer = torch.optim.SGD(params_of(model).values(), lr=lr, momentum=0.9)  # ok
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            if penalties:
                loss = loss + lam * sum(pen(model) for pen in penalties)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()


def run_sequence(model, tasks, device, args):
    """``tasks`` is a list of (train_loader, test_loader, classes)."""
    penalties = []
    acc_matrix = []
    for t, (train_loader, _, _) in enumerate(tasks):
        theta_prev = params_of(model)  # expect: TEN402
        train_task(model, train_loader, device, args.epochs, args.lr, penalties, args.lam)
        drift = parameter_change(model, theta_prev)

        row = [task_accuracy(model, tl, device, cls) for _, tl, cls in tasks[: t + 1]]
        acc_matrix.append(row)
        log.info("task %d  |dtheta|=%.4f  accs=%s", t, drift, " ".join(f"{a:.3f}" for a in row))

        if args.method == "ewc":
            penalties.append(EWC(model, train_loader, device, num_batches=args.fisher_batches))

    final = acc_matrix[-1]
    forgetting = [max(acc_matrix[j][i] for j in range(i, len(tasks))) - final[i] for i in range(len(tasks) - 1)]
    return acc_matrix, sum(forgetting) / max(len(forgetting), 1)


def finetune_l2sp(model, train_loader, test_loader, device, args):
    reg = L2SP(model, alpha=args.alpha, beta=args.beta, head_prefix="fc.")
    w_init = snapshot(model)  # ok
    train_task(model, train_loader, device, args.epochs, args.lr, [reg], 1.0)
    log.info("distance from pretrained weights: %.4f", parameter_change(model, w_init))
    return task_accuracy(model, test_loader, device)


def build_split_cifar(n_tasks, batch_size):
    from torchvision import datasets, transforms

    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,) * 3, (0.5,) * 3)])
    train = datasets.CIFAR100("data", train=True, download=True, transform=tf)
    test = datasets.CIFAR100("data", train=False, download=True, transform=tf)
    per = 100 // n_tasks
    tasks = []
    for t in range(n_tasks):
        classes = list(range(t * per, (t + 1) * per))
        tr_idx = [i for i, y in enumerate(train.targets) if y in classes]
        te_idx = [i for i, y in enumerate(test.targets) if y in classes]
        tasks.append((
            torch.utils.data.DataLoader(torch.utils.data.Subset(train, tr_idx), batch_size=batch_size, shuffle=True),
            torch.utils.data.DataLoader(torch.utils.data.Subset(test, te_idx), batch_size=256),
            classes,
        ))
    return tasks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--method", choices=["finetune", "ewc"], default="ewc")
    ap.add_argument("--tasks", type=int, default=10)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--lam", type=float, default=5000.0)
    ap.add_argument("--fisher-batches", type=int, default=50)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)

    from torchvision.models import resnet18

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = resnet18(num_classes=100)
    model.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
    model.maxpool = nn.Identity()
    model.to(device)
    _, avg_forgetting = run_sequence(model, build_split_cifar(args.tasks, 64), device, args)
    log.info("average forgetting: %.4f", avg_forgetting)


if __name__ == "__main__":
    main()
