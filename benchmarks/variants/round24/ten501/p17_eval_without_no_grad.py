"""Evaluation helpers called from the training loop; one of them only calls model.eval()."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def evaluate(model, loader):
    model.eval()
    preds, total_loss = [], 0.0
    for x, y in loader:
        out = model(x)
        preds.append(out)  # expect: TEN501
        total_loss += F.cross_entropy(out, y)  # expect: TEN501
    model.train()
    return torch.cat(preds), total_loss / len(loader)


@torch.no_grad()
def evaluate_fixed(model, loader):
    model.eval()
    preds, total_loss = [], 0.0
    for x, y in loader:
        out = model(x)
        preds.append(out)  # ok
        total_loss += F.cross_entropy(out, y)  # ok
    model.train()
    return torch.cat(preds), total_loss / len(loader)


def evaluate_inference(model, loader):
    model.eval()
    correct = 0
    logits_all = []
    with torch.inference_mode():
        for x, y in loader:
            out = model(x)
            logits_all.append(out)  # ok
            correct += (out.argmax(1) == y).sum().item()  # ok
    model.train()
    return correct


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train_loader = [(torch.randn(8, 8), torch.randint(0, 3, (8,))) for _ in range(3)]
val_loader = [(torch.randn(8, 8), torch.randint(0, 3, (8,))) for _ in range(3)]
val_history = []
val_history_ok = []
for epoch in range(3):
    for x, y in train_loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    _, val_loss = evaluate(model, val_loader)
    val_history.append(val_loss)  # expect: TEN501
    _, val_loss_ok = evaluate_fixed(model, val_loader)
    val_history_ok.append(val_loss_ok)  # ok
    print(epoch, float(val_loss), float(val_loss_ok), evaluate_inference(model, val_loader))
