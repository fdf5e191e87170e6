"""Mixed precision on CPU (bfloat16 autocast) with a hand-written loss scaler."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LossScaler:
    def __init__(self, init_scale=2.0 ** 4):
        self.scale_factor = init_scale
        self.history = []
        self._last_scaled = None

    def scale(self, loss):
        scaled = loss * self.scale_factor
        self._last_scaled = scaled
        return scaled

    def unscale_and_step(self, opt):
        for g in opt.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    p.grad.div_(self.scale_factor)
        found_inf = any(not torch.isfinite(p.grad).all() for g in opt.param_groups for p in g["params"])
        if not found_inf:
            opt.step()
        self.history.append(self.scale_factor)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(8, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = LossScaler()
    scaled_losses, loss_vals, logits_hist = [], [], []
    for it in range(4):
        x, y = torch.randn(8, 8), torch.randint(0, 2, (8,))
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = model(x)
            loss = F.cross_entropy(logits.float(), y)
        opt.zero_grad()
        scaled = scaler.scale(loss)  # either
        scaled.backward()
        scaler.unscale_and_step(opt)
        scaled_losses.append(scaled)  # expect: TEN501
        loss_vals.append(loss.float().item())  # ok
        logits_hist.append(logits.float())  # expect: TEN501
        logits_hist.append(logits.detach().float())  # ok
    print(len(scaled_losses), float(sum(scaled_losses)), sum(loss_vals), len(logits_hist), scaler.history[-1])


if __name__ == "__main__":
    main()
