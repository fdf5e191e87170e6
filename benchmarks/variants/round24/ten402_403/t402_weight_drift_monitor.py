"""Monitor how far the weights drift from their values at the start of training."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class DriftMonitor:
    def __init__(self, model):
        self.model = model
        self.ref = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
        self.ref_init = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok

    def drift(self, which="ref"):
        ref = getattr(self, which)
        return {n: (p.detach() - ref[n]).norm().item() for n, p in self.model.named_parameters()}


def relative_change(model, x):
    before = model(x).detach()  # ok
    return before


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 4))
    mon = DriftMonitor(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
    x = torch.randn(64, 8)
    y = torch.randn(64, 4)
    out0 = relative_change(model, x)
    for step in range(15):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    d1 = mon.drift("ref")
    d2 = mon.drift("ref_init")
    print("drift ref", {k: round(v, 6) for k, v in d1.items()})
    print("drift ref_init", {k: round(v, 6) for k, v in d2.items()})
    print(f"output change {(model(x) - out0).abs().mean().item():.6f}")
