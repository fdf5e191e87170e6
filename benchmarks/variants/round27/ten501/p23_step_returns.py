"""train_step() returns (loss, aux dict); the caller aggregates per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Linear(5, 16)
        self.cls = nn.Linear(16, 3)
        self.reg = nn.Linear(16, 1)

    def forward(self, x):
        h = F.relu(self.f(x))
        return self.cls(h), self.reg(h).squeeze(-1)


def train_step(net, opt, x, y_cls, y_reg):
    logits, pred = net(x)
    cls_loss = F.cross_entropy(logits, y_cls)
    reg_loss = F.mse_loss(pred, y_reg)
    loss = cls_loss + 0.5 * reg_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss, {"cls": cls_loss, "reg": reg_loss}


def train_step_scalars(net, opt, x, y_cls, y_reg):
    loss, aux = train_step(net, opt, x, y_cls, y_reg)
    return loss.item(), {k: v.item() for k, v in aux.items()}


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for epoch in range(2):
    epoch_total = 0.0
    aux_totals = {"cls": 0.0, "reg": 0.0}
    epoch_total_ok = 0.0
    aux_ok = {"cls": 0.0, "reg": 0.0}
    for it in range(6):
        x = torch.randn(8, 5)
        yc, yr = torch.randint(0, 3, (8,)), torch.randn(8)
        if it % 2 == 0:
            loss, aux = train_step(net, opt, x, yc, yr)
            epoch_total += loss  # expect: TEN501
            aux_totals["reg"] += aux["reg"]  # expect: TEN501
            aux_totals["cls"] += aux["cls"].item()  # ok
        else:
            l, a = train_step_scalars(net, opt, x, yc, yr)
            epoch_total_ok += l  # ok
            aux_ok["reg"] += a["reg"]  # ok
    print(epoch, round(epoch_total.item(), 4), round(aux_totals["reg"].item(), 4),
          round(epoch_total_ok, 4), round(aux_ok["reg"], 4))
