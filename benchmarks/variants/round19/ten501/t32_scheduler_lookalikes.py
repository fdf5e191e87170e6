"""Things that take the attached loss but do not keep the graph: ReduceLROnPlateau, clip_grad_norm_, lr lists."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
    lrs, grad_norms, param_norms, losses_t = [], [], [], []
    nan_steps = []
    for epoch in range(5):
        loss = F.mse_loss(model(torch.randn(16, 4)), torch.randn(16, 1))
        opt.zero_grad()
        loss.backward()
        total_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        plateau.step(loss)  # ok
        grad_norms.append(total_norm)  # ok
        lrs.append(opt.param_groups[0]["lr"])  # ok
        param_norms.append(model.weight.norm())  # expect: TEN501
        if not math.isfinite(loss.item()):
            nan_steps.append(epoch)
        losses_t.append(torch.as_tensor(loss.item()))  # ok
    print(lrs[-1], float(sum(grad_norms)), float(sum(param_norms)), float(plateau.best), float(sum(losses_t)), nan_steps)


if __name__ == "__main__":
    main()
