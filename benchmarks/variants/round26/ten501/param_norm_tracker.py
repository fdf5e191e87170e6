"""Weight-norm / regulariser diagnostics computed from parameters during training."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 20)
        self.fc2 = nn.Linear(20, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def l2_penalty(model):
    return sum(p.pow(2).sum() for n, p in model.named_parameters() if "weight" in n)


def weight_stats(model):
    w = model.fc1.weight
    return {"norm": w.norm(), "sparsity": (w.abs() < 1e-2).float().mean()}


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
weight_norms, weight_norms_ok = [], []
sparsity_log = []
reg_total = 0.0
reg_total_ok = 0.0
for step in range(8):
    x = torch.randn(32, 10)
    y = x[:, :1] - x[:, 1:2]
    reg = l2_penalty(model)
    loss = nn.functional.mse_loss(model(x), y) + 1e-3 * reg
    opt.zero_grad()
    loss.backward()
    opt.step()
    stats = weight_stats(model)
    weight_norms.append(stats["norm"])  # expect: TEN501
    sparsity_log.append(stats["sparsity"])  # ok
    with torch.no_grad():
        weight_norms_ok.append(weight_stats(model)["norm"])  # ok
    reg_total += reg  # expect: TEN501
    reg_total_ok += reg.detach()  # ok
print([round(float(w), 4) for w in weight_norms[-3:]], [round(float(w), 4) for w in weight_norms_ok[-3:]], round(float(reg_total), 3), round(float(reg_total_ok), 3), float(sparsity_log[-1]))
