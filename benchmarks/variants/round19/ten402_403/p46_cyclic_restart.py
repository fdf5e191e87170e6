"""Cyclic LR with a restart rule: if a cycle ends worse than it began, go back to its start."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
sched = torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=1.0, step_size_up=3)
X, Y = torch.randn(30, 3), torch.randn(30, 1)


def val_loss():
    with torch.no_grad():
        return nn.functional.mse_loss(model(X), Y).item()


for cycle in range(3):
    start_loss = val_loss()
    cycle_start = {k: v for k, v in model.state_dict().items() if k.endswith("weight")}  # expect: TEN402
    cycle_start_ok = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    start_values = list(model.state_dict().values())  # expect: TEN402
    for _ in range(6):
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.step()
        sched.step()
    end_loss = val_loss()
    moved_naive = sum((a - b).abs().sum().item() for a, b in zip(start_values, model.state_dict().values()))
    if end_loss > start_loss:
        model.load_state_dict(cycle_start, strict=False)
        naive = val_loss()
        model.load_state_dict(cycle_start_ok)
        print(f"cycle {cycle}: worse ({end_loss:.3f} > {start_loss:.3f}); naive restore gives {naive:.3f}, proper {val_loss():.3f}")
    else:
        print(f"cycle {cycle}: improved to {end_loss:.3f}; naive movement {moved_naive:.3f}")
