"""Full-batch LBFGS with a closure; bookkeeping inside and outside the closure."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=3)
x = torch.linspace(-1, 1, 32).unsqueeze(1).repeat(1, 2)
y = torch.sin(3 * x[:, :1])

closure_trace = []
n_evals = [0]


def closure():
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    closure_trace.append(loss)  # expect: TEN501
    n_evals[0] += 1  # ok
    return loss


returned, returned_f = [], []
for outer in range(3):
    ret = opt.step(closure)
    returned.append(ret)  # expect: TEN501
    returned_f.append(float(ret))  # ok
print(n_evals[0], len(closure_trace), returned_f)
