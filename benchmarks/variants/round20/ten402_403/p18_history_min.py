"""Record (val_loss, weights) every epoch and pick the minimum at the end."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def evaluate(model, x, y):
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def fit(record):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x = torch.randn(20, 3)
    y = x[:, :1] + 0.5 * torch.randn(20, 1)  # few noisy points: overfits
    xv = torch.randn(200, 3)
    yv = xv[:, :1]
    history = []
    for epoch in range(40):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        vl = evaluate(model, xv, yv)
        if record == "state_dict":
            history.append((vl, epoch, model.state_dict()))  # expect: TEN402
        elif record == "to":
            history.append((vl, epoch, {k: v.to("cpu") for k, v in model.state_dict().items()}))  # expect: TEN402
        else:
            history.append((vl, epoch, {k: v.to("cpu", copy=True) for k, v in model.state_dict().items()}))  # ok
    best_vl, best_epoch, best_sd = min(history, key=lambda t: t[0])
    last_vl = history[-1][0]
    model.load_state_dict(best_sd)
    print(f"record={record} best_epoch={best_epoch} best={best_vl:.4f} last={last_vl:.4f} "
          f"after_restore={evaluate(model, xv, yv):.4f}")


for record in ("state_dict", "to", "copy"):
    fit(record)
