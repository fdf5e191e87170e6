"""Loss histories kept in preallocated tensors, torch.cat chains and torch.stack snapshots."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

n_steps = 5
model = nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

loss_hist = torch.zeros(n_steps)
loss_hist_values = torch.zeros(n_steps)
loss_hist_detached = torch.zeros(n_steps)
hist_cat = torch.empty(0)
hist_cat_detached = torch.empty(0)
out_buf = torch.zeros(n_steps, 2)
snapshots = []
snapshots_detached = []
for step in range(n_steps):
    x, y = torch.randn(4, 3), torch.randn(4, 2)
    out = model(x)
    loss = F.mse_loss(out, y)
    reg = out.abs().mean()
    opt.zero_grad()
    (loss + 0.01 * reg).backward()
    opt.step()

    loss_hist[step] = loss  # expect: TEN501
    loss_hist_values[step] = loss.item()  # ok
    loss_hist_detached[step] = loss.detach()  # ok
    hist_cat = torch.cat([hist_cat, loss.unsqueeze(0)])  # expect: TEN501
    hist_cat_detached = torch.cat([hist_cat_detached, loss.detach().unsqueeze(0)])  # ok
    out_buf.index_copy_(0, torch.tensor([step]), out.mean(0, keepdim=True))  # expect: TEN501
    snapshots.append(torch.stack([loss, reg]))  # expect: TEN501
    snapshots_detached.append(torch.stack([loss, reg]).detach())  # ok

print("values:", [round(v, 4) for v in loss_hist_values.tolist()], "cat:", hist_cat_detached.shape)
