import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(150, 4)
y = (X[:, 0] - X[:, 3] > 0).long()
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
init = model.state_dict()  # expect: TEN402
init_flat = nn.utils.parameters_to_vector(model.parameters())  # ok
folds = torch.arange(150).chunk(5)
accs = []
for k, val_idx in enumerate(folds):
    model.load_state_dict(init)
    start_dist = (nn.utils.parameters_to_vector(model.parameters()) - init_flat).norm().item()
    train_idx = torch.cat([f for j, f in enumerate(folds) if j != k])
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(15):
        opt.zero_grad()
        nn.functional.cross_entropy(model(X[train_idx]), y[train_idx]).backward()
        opt.step()
    with torch.no_grad():
        acc = (model(X[val_idx]).argmax(1) == y[val_idx]).float().mean().item()
    accs.append(acc)
    print(f"fold {k} start-dist {start_dist:.5f} acc {acc:.4f}")
print(f"cv acc {sum(accs) / len(accs):.4f}")
