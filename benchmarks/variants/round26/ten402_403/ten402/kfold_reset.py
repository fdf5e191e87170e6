import io
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(120, 5)
Y = (X[:, 0] - 2 * X[:, 3] + 0.1 * torch.randn(120)).unsqueeze(1)
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

init_weights = model.state_dict()  # expect: TEN402
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)  # ok
print(f"init first-layer norm {init_weights['0.weight'].norm().item():.6f}")

folds = torch.arange(120).chunk(4)
scores = []
for k, val_idx in enumerate(folds):
    train_idx = torch.cat([f for j, f in enumerate(folds) if j != k])
    model.load_state_dict(init_weights)  # fresh model for every fold
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(15):
        opt.zero_grad()
        nn.functional.mse_loss(model(X[train_idx]), Y[train_idx]).backward()
        opt.step()
    with torch.no_grad():
        scores.append(nn.functional.mse_loss(model(X[val_idx]), Y[val_idx]).item())
print("fold mse", [round(s, 6) for s in scores])

buffer.seek(0)
model.load_state_dict(torch.load(buffer))
with torch.no_grad():
    print(f"mse of the untrained model {nn.functional.mse_loss(model(X), Y).item():.6f}")
