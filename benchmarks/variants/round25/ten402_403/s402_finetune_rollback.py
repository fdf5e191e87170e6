# fine-tuning with rollback: if an epoch makes validation worse, undo it and halve lr
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(80, 7)
y = (x[:, :3].sum(1) > 0).long()
xv = torch.randn(80, 7)
yv = (xv[:, :3].sum(1) + 0.8 * torch.randn(80) > 0).long()
model = nn.Sequential(nn.Linear(7, 40), nn.ReLU(), nn.Linear(40, 2))
lr = 2.0
loss_fn = nn.CrossEntropyLoss()


def val_loss():
    with torch.no_grad():
        return loss_fn(model(xv), yv).item()


prev_val = val_loss()
rollbacks = 0
for epoch in range(10):
    prev = model.state_dict()  # expect: TEN402
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for i in range(0, 80, 10):
        opt.zero_grad()
        loss_fn(model(x[i:i + 10]), y[i:i + 10]).backward()
        opt.step()
    v = val_loss()
    if v > prev_val:
        model.load_state_dict(prev)
        lr *= 0.5
        rollbacks += 1
        v = val_loss()
    prev_val = v
    print(f"epoch {epoch} lr {lr:.4f} val {v:.5f}")
print("rollbacks", rollbacks, "final val", round(val_loss(), 5))
