"""Two experiment loggers: one formats rows to text, one keeps raw row dicts."""
import io
import torch
import torch.nn as nn

torch.manual_seed(0)


class TextLogger:
    def __init__(self, stream):
        self.stream = stream

    def log_row(self, **row):
        self.stream.write(",".join(f"{k}={v:.5f}" if not isinstance(v, int) else f"{k}={v}"
                                   for k, v in row.items()) + "\n")


class TableLogger:
    def __init__(self):
        self.rows = []

    def log_row(self, **row):
        self.rows.append(dict(row))

    def column(self, key):
        return [r[key] for r in self.rows]


def run(logger_text, logger_table, steps=8):
    model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, 3, 0.5)
    for step in range(steps):
        x = torch.randn(16, 3)
        pred = model(x)
        loss = (pred.squeeze(1) - x.prod(1)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        lr = sched.get_last_lr()[0]
        logger_text.log_row(step=step, loss=loss, lr=lr)  # ok
        logger_table.log_row(step=step, loss=loss, pred_mean=pred.mean(), lr=lr)  # expect: TEN501
    return model


buf = io.StringIO()
table = TableLogger()
run(TextLogger(buf), table)
print(buf.getvalue().splitlines()[-1])
print([round(v.item(), 4) for v in table.column("loss")[-3:]])
