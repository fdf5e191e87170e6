"""Closures passed to optimizer.step (LBFGS and SGD) that log from the inside."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(40, 3)
Y = X @ torch.tensor([[1.5], [-0.5], [2.0]]) + 0.3

model = nn.Linear(3, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5)

closure_losses = []
closure_items = []
step_returns = []
step_returns_ok = []
evals = 0


def closure():
    global evals
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    evals += 1
    closure_losses.append(loss)  # expect: TEN501
    closure_items.append(loss.item())  # ok
    return loss


for outer in range(4):
    step_returns.append(opt.step(closure))  # expect: TEN501

model_b = nn.Linear(3, 1)
opt_b = torch.optim.SGD(model_b.parameters(), lr=0.1)


def make_closure(xb, yb, sink):
    def _closure():
        opt_b.zero_grad()
        loss = nn.functional.mse_loss(model_b(xb), yb)
        loss.backward()
        sink["total"] = sink.get("total", 0.0) + loss.item()  # ok
        return loss
    return _closure


sink = {}
for i in range(10):
    ret = opt_b.step(make_closure(X[i * 4:(i + 1) * 4], Y[i * 4:(i + 1) * 4], sink))
    step_returns_ok.append(ret.item())  # ok

print("evals", evals, "lbfgs", round(float(closure_losses[-1]), 5), round(closure_items[0], 4))
print("returns", [round(float(r), 4) for r in step_returns])
print("sgd", round(sink["total"], 4), round(step_returns_ok[-1], 4))
