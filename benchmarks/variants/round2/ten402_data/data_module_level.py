"""A notebook-style script: everything at module level."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


model = Net()
model.fc2.bias.data.fill_(0.0)  # expect: TEN102
model.fc1.weight.data[:, 0] = 0.0  # expect: TEN102
print("fc1 norm", model.fc1.weight.data.norm().item())  # expect: TEN101
layer = model.fc1
getattr(layer, "weight").data.mul_(0.5)  # expect: TEN102
w_copy = getattr(model, "fc2").weight.data.clone()  # expect: TEN101

x = torch.randn(8, 4)
target = torch.randint(0, 2, (8,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for it in range(3):
    out = model(x)
    loss = F.cross_entropy(out, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    pred = out.data.max(1)[1]  # expect: TEN101
    correct = pred.eq(target.data.view_as(pred)).sum()  # expect: TEN101
    print(it, loss.data.item(), int(correct))  # expect: TEN101

scale = torch.tensor(2.0, requires_grad=True)
scale.data = torch.tensor(1.0)  # expect: TEN103
print(scale.data.dtype, next(model.parameters()).data.device)  # expect: TEN101

# look-alikes at module level
import numpy as np

arr = np.arange(6.0)
buf = arr.data  # ok
print(bytes(buf)[:4])
masked = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
print(masked.data.sum())  # ok
masked.data[0] = 5.0  # ok
