# Flat training script: validation is done inline each epoch, no no_grad.
import torch
import torch.nn as nn

torch.manual_seed(0)
X_train, y_train = torch.randn(120, 7), torch.randn(120, 1)
X_val, y_val = torch.randn(40, 7), torch.randn(40, 1)

model = nn.Sequential(nn.Linear(7, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    for i in range(0, 120, 20):
        optimizer.zero_grad()
        loss = criterion(model(X_train[i:i + 20]), y_train[i:i + 20])
        loss.backward()
        optimizer.step()

    model.eval()
    val_loss = 0.0
    val_preds = []
    for i in range(0, 40, 10):
        out = model(X_val[i:i + 10])
        val_loss += criterion(out, y_val[i:i + 10])  # expect: TEN501
        val_preds.append(out)  # expect: TEN501
    print(f"epoch {epoch} val {val_loss.item() / 4:.4f} n={len(val_preds)}")
