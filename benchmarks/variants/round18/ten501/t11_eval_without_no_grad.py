"""Validation helpers, one of which forgets torch.no_grad()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

all_val_outputs = []
val_predictions = []


def evaluate(model, batches):
    model.eval()
    batch_losses = []
    for xb, yb in batches:
        out = model(xb)
        all_val_outputs.append(out)  # expect: TEN501
        batch_losses.append(F.cross_entropy(out, yb))  # ok
    model.train()
    return torch.stack(batch_losses).mean()


@torch.no_grad()
def evaluate_nograd(model, batches):
    model.eval()
    losses, preds = [], []
    for xb, yb in batches:
        out = model(xb)
        preds.extend(out.argmax(dim=1).tolist())
        losses.append(F.cross_entropy(out, yb))
    val_predictions.append(preds)  # ok
    model.train()
    return torch.stack(losses).mean()


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train_batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(2)]
val_batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(2)]

val_history = []
val_history_nograd = []
val_history_item = []
for epoch in range(3):
    for xb, yb in train_batches:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val_history.append(evaluate(model, val_batches))  # expect: TEN501
    val_history_nograd.append(evaluate_nograd(model, val_batches))  # ok
    val_history_item.append(evaluate(model, val_batches).item())  # ok
    print(f"epoch {epoch}: val {val_history_item[-1]:.4f} / {val_history_nograd[-1].item():.4f}")
