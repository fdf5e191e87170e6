"""Which conversions actually drop the graph before a loss is stored?"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(5, 10), nn.Tanh(), nn.Linear(10, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

cloned, moved, wrapped, reshaped, cast = [], [], [], [], []
via_data, via_tolist, rebuilt, via_numpy, detached_cpu, copied = [], [], [], [], [], []

for step in range(10):
    x = torch.randn(16, 5)
    y = x[:, :1] * 2 - x[:, 1:2]
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

    cloned.append(loss.clone())  # expect: TEN501
    moved.append(loss.cpu())  # expect: TEN501
    wrapped.append(torch.as_tensor(loss))  # expect: TEN501
    reshaped.append(loss.view(1))  # expect: TEN501
    cast.append(loss.to(torch.float64))  # expect: TEN501
    via_data.append(loss.data)  # ok
    via_tolist.append(loss.tolist())  # ok
    rebuilt.append(torch.tensor(loss.item()))  # ok
    via_numpy.append(loss.detach().numpy().copy())  # ok
    detached_cpu.append(loss.detach().cpu())  # ok
    copied.append(loss.new_tensor(loss.item()))  # ok

print("clone", round(float(torch.stack(cloned).mean()), 5), "cpu", round(float(moved[-1]), 5))
print("as_tensor", round(float(wrapped[0]), 5), "view", tuple(torch.cat(reshaped).shape), cast[-1].dtype)
print("data", round(float(sum(via_data)), 5), round(sum(via_tolist), 5), round(float(rebuilt[-1]), 5),
      round(float(np.mean(via_numpy)), 5), round(float(detached_cpu[0]), 5), round(float(copied[-1]), 5))
