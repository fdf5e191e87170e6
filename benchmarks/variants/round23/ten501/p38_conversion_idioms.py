"""Different ways of turning a loss into something to keep."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
t_clone = torch.zeros(())
t_data = torch.zeros(())
t_cpu = torch.zeros(())
t_fresh = torch.zeros(())
as_list = []
for step in range(4):
    x, y = torch.randn(5, 3), torch.randn(5, 1)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    t_clone += loss.clone()  # expect: TEN501
    t_data += loss.data  # ok
    t_cpu = t_cpu + loss.cpu()  # expect: TEN501
    t_fresh = t_fresh + torch.tensor(loss.item())  # ok
    as_list.append(loss.tolist())  # ok
print(float(t_clone), float(t_data), float(t_cpu), float(t_fresh), as_list[-1])
