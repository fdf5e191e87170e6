"""Deferred logging through closures, lambdas and functools.partial."""
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F


def report(tag, value, step):
    return f"{tag}[{step}]={float(value):.4f}"


def make_logger():
    history = []

    def log(value):
        history.append(value)
        return len(history)

    log.history = history
    return log


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    pending, pending_ok, deferred, late = [], [], [], []
    log_bad, log_ok = make_logger(), make_logger()
    for step in range(4):
        loss = F.mse_loss(model(torch.randn(8, 3)), torch.randn(8, 1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        pending.append(functools.partial(report, "loss", loss, step))  # expect: TEN501
        pending_ok.append(functools.partial(report, "loss", loss.item(), step))  # ok
        deferred.append(lambda l=loss, s=step: report("default-bound", l, s))  # expect: TEN501
        late.append(lambda: report("late-bound", loss, step))  # either
        log_bad(loss)  # expect: TEN501
        log_ok(float(loss.detach()))  # ok
    lines = [f() for f in pending] + [f() for f in pending_ok] + [f() for f in deferred] + [f() for f in late]
    print(len(lines), lines[0], lines[-1], len(log_bad.history), sum(log_ok.history))


if __name__ == "__main__":
    main()
