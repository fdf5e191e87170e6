"""Per-epoch parameter history for plotting weight trajectories."""
import torch
import torch.nn as nn

torch.manual_seed(0)

if __name__ == "__main__":
    model = nn.Linear(3, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    x = torch.randn(24, 3)
    y = torch.randn(24, 3)
    history = {}
    norms = {}
    flat = {}
    for epoch in range(5):
        history[epoch] = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
        norms[epoch] = {n: p.norm().item() for n, p in model.named_parameters()}  # ok
        flat[epoch] = torch.cat([p.detach().reshape(-1) for p in model.parameters()])  # ok
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    traj = [(history[e]["weight"] - history[0]["weight"]).norm().item() for e in history]
    traj_flat = [(flat[e] - flat[0]).norm().item() for e in flat]
    print("trajectory", [round(t, 6) for t in traj])
    print("trajectory flat", [round(t, 6) for t in traj_flat])
    print("norms", [round(norms[e]["weight"], 6) for e in norms])
