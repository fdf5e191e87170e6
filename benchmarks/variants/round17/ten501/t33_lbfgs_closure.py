"""Full-batch L-BFGS; optimizer.step(closure) returns the first closure loss."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.linspace(-2, 2, 40).unsqueeze(1)
y = torch.sin(2 * x) + 0.05 * torch.randn_like(x)
model = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 1))
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)

closure_evals = []
history = []
history_values = []


def closure():
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    closure_evals.append(loss.item())  # ok
    return loss


for epoch in range(5):
    loss = optimizer.step(closure)
    history.append(loss)  # expect: TEN501
    history_values.append(loss.item())  # ok

print(len(closure_evals), history_values[-1])
