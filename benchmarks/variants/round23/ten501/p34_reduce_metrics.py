"""DDP-flavoured metric reduction (single process stub) and per-step log dicts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

WORLD_SIZE = 1


def reduce_mean(t):
    rt = t.clone()
    # torch.distributed.all_reduce(rt) would go here
    return rt / WORLD_SIZE


torch.manual_seed(0)
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
meters = {"loss": [], "loss_f": []}
epoch_log = []
for step in range(5):
    x = torch.randn(4, 4)
    out = model(x)
    loss = F.mse_loss(out, x)
    acc = (out - x).abs().lt(0.5).float().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    reduced = reduce_mean(loss)
    meters["loss"].append(reduced)  # expect: TEN501
    meters["loss_f"].append(reduce_mean(loss.detach()).item())  # ok
    step_log = {"loss": loss, "acc": acc}
    epoch_log.append(step_log)  # expect: TEN501
print(len(meters["loss"]), meters["loss_f"][-1], len(epoch_log))
