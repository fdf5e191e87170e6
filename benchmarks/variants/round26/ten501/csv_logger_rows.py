"""Logger that buffers rows and flushes a CSV at the end of training."""
import csv
import io

import torch
import torch.nn as nn

torch.manual_seed(0)


class CSVLogger:
    def __init__(self, fields):
        self.fields = fields
        self.rows = []

    def write_row(self, row):
        self.rows.append(dict(row))

    def dump(self):
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=self.fields)
        w.writeheader()
        for r in self.rows:
            w.writerow({k: (float(v) if torch.is_tensor(v) else v) for k, v in r.items()})
        return buf.getvalue()


def make_data(n=64):
    x = torch.randn(n, 5)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [1.5]]) + 0.1
    return x, y


def run(log_tensors):
    net = nn.Linear(5, 1)
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    x, y = make_data()
    logger = CSVLogger(["step", "loss", "w_norm"])
    for step in range(12):
        idx = torch.randint(0, 64, (16,))
        loss = nn.functional.l1_loss(net(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        w_norm = net.weight.norm()
        if log_tensors:
            logger.write_row({"step": step, "loss": loss, "w_norm": w_norm})  # expect: TEN501
        else:
            logger.write_row({"step": step, "loss": float(loss), "w_norm": w_norm.item()})  # ok
    return logger.dump()


print(run(True).splitlines()[-1])
print(run(False).splitlines()[-1])
