"""Assorted loss bookkeeping in a small regression loop."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

logged, logged_eval = [], []
copies, copies_b = [], []
hist_a, hist_b = [], []
out_means, out_means_b = [], []
heads, heads_b = [], []

for step in range(7):
    x = torch.randn(10, 4)
    out = model(x)
    loss = (out - x[:, :1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

    with torch.no_grad():
        logged.append(loss)  # expect: TEN501
        logged_eval.append(model(x).mean())  # ok
    copies.append(loss.clone())  # expect: TEN501
    copies_b.append(loss.detach().clone())  # ok
    hist_a.append(loss.detach)  # expect: TEN501
    hist_b.append(loss.detach())  # ok
    out_means.append(out.mean())  # expect: TEN501
    out_means_b.append(out.data.mean())  # ok
    heads.append(out[:3].view(-1))  # expect: TEN501
    heads_b.append(out.detach()[:3].view(-1))  # ok

print(len(logged), copies_b[-1].item(), hist_b[-1].item(), out_means_b[-1].item(), heads_b[-1].shape)
