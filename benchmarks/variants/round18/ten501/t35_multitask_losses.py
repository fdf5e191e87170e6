"""Multi-task model returning a dict of losses, with learned uncertainty weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(6, 16), nn.ReLU())
        self.cls_head = nn.Linear(16, 3)
        self.reg_head = nn.Linear(16, 1)
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, x):
        h = self.trunk(x)
        return {"cls": self.cls_head(h), "reg": self.reg_head(h).squeeze(-1), "feat": h}


def compute_losses(outputs, targets, log_vars):
    cls = F.cross_entropy(outputs["cls"], targets["cls"])
    reg = F.mse_loss(outputs["reg"], targets["reg"])
    return {
        "cls": torch.exp(-log_vars[0]) * cls + log_vars[0],
        "reg": torch.exp(-log_vars[1]) * reg + log_vars[1],
        "aux": 1e-3 * outputs["feat"].pow(2).mean(),
    }


net = MultiTaskNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)

log_history, log_history_clean = [], []
running, running_clean = {}, {}
cls_hist, reg_hist = [], []
weight_tensors, weight_values = [], []
for step in range(4):
    x = torch.randn(8, 6)
    targets = {"cls": torch.randint(0, 3, (8,)), "reg": torch.randn(8)}
    loss_dict = compute_losses(net(x), targets, net.log_vars)
    total = sum(loss_dict.values())
    opt.zero_grad()
    total.backward()
    opt.step()

    cls_loss, reg_loss = loss_dict["cls"], loss_dict["reg"]
    log_history.append({k: v for k, v in loss_dict.items()})  # expect: TEN501
    log_history_clean.append({k: v.item() for k, v in loss_dict.items()})  # ok
    running = {k: running.get(k, 0) + v for k, v in loss_dict.items()}  # expect: TEN501
    running_clean = {k: running_clean.get(k, 0.0) + v.item() for k, v in loss_dict.items()}  # ok
    cls_hist += [cls_loss]  # expect: TEN501
    reg_hist += [reg_loss.item()]  # ok
    weight_tensors.append(torch.exp(-net.log_vars))  # expect: TEN501
    weight_values.append(torch.exp(-net.log_vars).tolist())  # ok

print({k: round(v / 4, 4) for k, v in running_clean.items()}, "weights:", [round(w, 4) for w in weight_values[-1]])
