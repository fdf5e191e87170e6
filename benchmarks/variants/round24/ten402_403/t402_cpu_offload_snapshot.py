"""'Offload' the best weights to CPU memory; here everything already lives on CPU."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


def offload(sd):
    return {k: v.cpu() for k, v in sd.items()}  # expect: TEN402


def offload_copy(sd):
    return {k: v.to("cpu", copy=True) for k, v in sd.items()}  # ok


if __name__ == "__main__":
    model = nn.Linear(5, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    x = torch.randn(25, 5)
    y = torch.randint(0, 3, (25,))
    best = {}
    best_loss = float("inf")
    for step in range(12):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 3:
            best["cpu"] = offload(model.state_dict())  # either: TEN402
            best["cpu_copy"] = offload_copy(model.state_dict())
            best["numpy"] = {k: v.numpy() for k, v in model.state_dict().items()}  # expect: TEN402
            best["numpy_copy"] = {k: v.numpy().copy() for k, v in model.state_dict().items()}  # ok
            best["f64"] = {k: v.to(torch.float64) for k, v in model.state_dict().items()}  # ok
            best["float"] = {k: v.float() for k, v in model.state_dict().items()}  # expect: TEN402
    for name, sd in best.items():
        print(name, f"{sum(float((np.asarray(v) ** 2).sum()) for v in sd.values()):.6f}")
