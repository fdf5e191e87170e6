"""Plain top-level training script with a few loggers kept across steps."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
crit = nn.CrossEntropyLoss()

X = torch.randn(64, 8)
Y = torch.randint(0, 3, (64,))

losses = []
clean_losses = []
pred_history = []
epoch_total = 0.0
float_total = 0.0
last_seen = None

for step in range(12):
    idx = torch.randint(0, 64, (16,))
    out = model(X[idx])
    loss = crit(out, Y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()

    losses.append(loss)  # expect: TEN501
    epoch_total += loss  # expect: TEN501
    clean_losses.append(loss.item())  # ok
    float_total += float(loss)  # ok
    pred_history.append(out.argmax(dim=1))  # ok
    last_seen = loss.detach()  # ok

print("mean loss", sum(l.item() for l in losses) / len(losses))
print("total", float(epoch_total), round(float_total, 4), clean_losses[-1])
print("preds", torch.cat(pred_history).bincount().tolist(), float(last_seen))
