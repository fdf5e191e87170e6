"""Training loop written as a generator; the caller consumes the losses."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def train_steps(model, opt, n_steps):
    for step in range(n_steps):
        x = torch.randn(8, 3)
        y = torch.sin(x).sum(-1, keepdim=True)
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield step, loss, out


model = nn.Sequential(nn.Linear(3, 10), nn.SiLU(), nn.Linear(10, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

collected = []
collected_values = []
last_outputs = []
records = []
for step, loss, out in train_steps(model, opt, 10):
    collected.append(loss)  # expect: TEN501
    collected_values.append(loss.item())  # ok
    last_outputs.append(out.detach()[:2])  # ok
    records.append({"step": step, "loss": round(loss.item(), 4)})  # ok

print(len(collected), collected_values[-1], records[-1])
