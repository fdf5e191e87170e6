#!/usr/bin/env python
# coding: utf-8

# # Polynomial regression with PyTorch
# Fit a cubic with a linear layer on polynomial features, then compare full-batch and mini-batch.

# In[1]:


import torch
import matplotlib.pyplot as plt
from torch.utils.data import DataLoader, TensorDataset


# In[2]:


torch.manual_seed(0)
x = torch.linspace(-3, 3, 200).unsqueeze(1)
y = 0.5 * x ** 3 - x ** 2 + 2 * x + torch.randn_like(x) * 2


# In[3]:


def features(x, degree=3):
    return torch.cat([x ** i for i in range(1, degree + 1)], dim=1)

X = features(x)
X = (X - X.mean(0)) / X.std(0)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = torch.nn.MSELoss()


# In[4]:


losses = []
for epoch in range(500):
    pred = model(X)
    loss = loss_fn(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses += [loss]  # expect: TEN501
    if epoch % 50 == 0:
        print(epoch, loss.item())


# In[5]:


plt.plot([l.item() for l in losses])
plt.yscale("log")
plt.title("full-batch loss")


# In[6]:


# mini-batch version
model2 = torch.nn.Linear(3, 1)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.01)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
mb_losses = []
for epoch in range(100):
    epoch_loss = 0.0
    for xb, yb in loader:
        loss = loss_fn(model2(xb), yb)
        opt2.zero_grad()
        loss.backward()
        opt2.step()
        epoch_loss += loss.item() * len(xb)
    mb_losses.append(epoch_loss / len(X))


# In[7]:


with torch.no_grad():
    fitted = model(X)
    fitted2 = model2(X)
plt.figure()
plt.scatter(x, y, s=4)
plt.plot(x, fitted, "r", label="full batch")
plt.plot(x, fitted2, "g", label="mini batch")
plt.legend()
print(model.weight, model.bias)
