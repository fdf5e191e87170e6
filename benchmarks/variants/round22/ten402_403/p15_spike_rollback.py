"""Roll back model and optimizer when the loss spikes (e.g. after a corrupt batch)."""
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-2)
w_true = torch.randn(10, 1)
x_eval = torch.randn(128, 10)
y_eval = x_eval @ w_true


def batch(step):
    xb = torch.randn(32, 10)
    yb = xb @ w_true
    if step == 25:  # a corrupt batch with exploding targets
        yb = -yb * 400.0
    return xb, yb


def eval_loss():
    with torch.no_grad():
        return ((model(x_eval) - y_eval) ** 2).mean().item()


last_good_model = None
last_good_opt = None
running = None
rollbacks = 0
for step in range(50):
    xb, yb = batch(step)
    opt.zero_grad()
    ((model(xb) - yb) ** 2).mean().backward()
    opt.step()
    cur = eval_loss()
    if running is not None and cur > 2.0 * running and last_good_model is not None:
        model.load_state_dict(last_good_model)
        opt.load_state_dict(last_good_opt)
        rollbacks += 1
        print(f"step {step}: loss spiked to {cur:.3f}; rolled back -> {eval_loss():.5f}")
        continue
    running = cur if running is None else 0.9 * running + 0.1 * cur
    last_good_model = model.state_dict()  # expect: TEN402
    last_good_opt = opt.state_dict()  # expect: TEN402

w = model[0].weight
print(f"rollbacks {rollbacks}, final eval loss {eval_loss():.5f}, w[0,:3] {[round(v, 5) for v in w[0, :3].tolist()]}")
print(f"adam step counter {int(opt.state_dict()['state'][0]['step'])}")
