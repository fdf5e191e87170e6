"""A CSV-like row logger fed with dicts of values."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RowLogger:
    def __init__(self):
        self.rows = []

    def log_dict(self, row):
        self.rows.append(dict(row))

    def to_csv(self):
        keys = sorted(self.rows[0])
        return "\n".join(",".join(str(float(r[k])) for k in keys) for r in self.rows)


torch.manual_seed(0)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
logger, logger_ok, logger_ok2 = RowLogger(), RowLogger(), RowLogger()
for step in range(4):
    x, y = torch.randn(3, 4), torch.randn(3, 2)
    out = model(x)
    terms = {"mse": F.mse_loss(out, y), "huber": F.huber_loss(out, y)}
    loss = terms["mse"] + terms["huber"]
    opt.zero_grad()
    loss.backward()
    opt.step()
    lr = opt.param_groups[0]["lr"]
    logger.log_dict({"loss": loss, "lr": lr})  # expect: TEN501
    logger_ok.log_dict({"loss": loss.item(), "lr": lr})  # ok
    logger_ok2.log_dict({k: v.detach().cpu() for k, v in terms.items()})  # ok
print(len(logger.to_csv()), len(logger_ok.rows), len(logger_ok2.rows))
