#!/usr/bin/env python
# coding: utf-8

# # House price regression with a small MLP
# Exported from `house_prices_mlp.ipynb`.

# In[1]:


import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


# In[2]:


df = pd.read_csv("train.csv")
df = df.select_dtypes(include=[np.number]).fillna(df.median(numeric_only=True))
y = np.log1p(df.pop("SalePrice").values).reshape(-1, 1)
X = df.drop(columns=["Id"]).values
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=42)
scaler = StandardScaler().fit(X_train)
X_train, X_val = scaler.transform(X_train), scaler.transform(X_val)
X_train.shape, X_val.shape


# In[3]:


X_train_t = torch.tensor(X_train, dtype=torch.float32)
y_train_t = torch.tensor(y_train, dtype=torch.float32)
X_val_t = torch.tensor(X_val, dtype=torch.float32)
y_val_t = torch.tensor(y_val, dtype=torch.float32)
train_dl = DataLoader(TensorDataset(X_train_t, y_train_t), batch_size=64, shuffle=True)


# In[4]:


class MLP(nn.Module):
    def __init__(self, d_in, hidden=(256, 128)):
        super().__init__()
        layers, prev = [], d_in
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(0.2)]
            prev = h
        layers.append(nn.Linear(prev, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


model = MLP(X_train_t.shape[1])
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-2)
loss_fn = nn.MSELoss()
EPOCHS = 150
train_hist, val_hist = [], []
val_preds_by_epoch = []


# In[5]:


for epoch in range(EPOCHS):
    model.train()
    epoch_loss = 0
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss = epoch_loss + loss  # expect: TEN501
    train_hist.append(epoch_loss.item() / len(train_dl))  # ok

    model.eval()
    val_pred = model(X_val_t)
    val_loss = loss_fn(val_pred, y_val_t)
    val_hist.append(val_loss.item())  # ok
    val_preds_by_epoch.append(val_pred)  # expect: TEN501
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d}  train rmse {train_hist[-1] ** 0.5:.4f}  val rmse {val_hist[-1] ** 0.5:.4f}")


# In[6]:


plt.figure(figsize=(8, 4))
plt.plot(np.sqrt(train_hist), label="train")
plt.plot(np.sqrt(val_hist), label="val")
plt.ylabel("RMSE (log price)")
plt.legend()
plt.show()


# In[7]:


best_epoch = int(np.argmin(val_hist))
best_pred = val_preds_by_epoch[best_epoch].detach().numpy()
residuals = []
residuals.extend((best_pred - y_val).ravel().tolist())  # ok
print("best epoch", best_epoch, "val rmse", np.sqrt(np.mean(np.square(residuals))))
plt.hist(residuals, bins=50)
plt.title("validation residuals")
plt.show()
