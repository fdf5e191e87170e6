"""Device-agnostic "move the best weights to host memory" helpers, exercised on a CPU-only box:
several spellings of an fp32 host snapshot, compared after more training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def fit(model, x, y, steps, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def loss_of(model, sd, x, y):
    probe = nn.Linear(16, 1)
    probe.load_state_dict({k: v.float() for k, v in sd.items()})
    with torch.no_grad():
        return F.mse_loss(probe(x), y).item()


if __name__ == "__main__":
    g = torch.Generator().manual_seed(2)
    x = torch.randn(64, 16, generator=g)
    y = x @ torch.randn(16, 1, generator=g)
    model = nn.Linear(16, 1)
    fit(model, x, y, steps=5)
    with torch.no_grad():
        ref = F.mse_loss(model(x), y).item()

    sd = model.state_dict()
    host_best = {k: v.cpu() for k, v in sd.items()}  # expect: TEN402
    fp32_best = {k: v.to(torch.float32) for k, v in sd.items()}  # expect: TEN402
    float_best = {k: v.float() for k, v in model.state_dict().items()}  # expect: TEN402
    fp64_best = {k: v.to(torch.float64) for k, v in sd.items()}  # ok
    copy_best = {k: v.to("cpu", copy=True) for k, v in sd.items()}  # ok

    fit(model, x, y, steps=40)  # keep training; the snapshots above should not move
    print(f"loss at snapshot time     = {ref:.5f}")
    print(f"live model loss now       = {loss_of(model, model.state_dict(), x, y):.5f}")
    print(f"host_best  (.cpu())       = {loss_of(model, host_best, x, y):.5f}")
    print(f"fp32_best  (.to(float32)) = {loss_of(model, fp32_best, x, y):.5f}")
    print(f"float_best (.float())     = {loss_of(model, float_best, x, y):.5f}")
    print(f"fp64_best  (.to(float64)) = {loss_of(model, fp64_best, x, y):.5f}")
    print(f"copy_best  (copy=True)    = {loss_of(model, copy_best, x, y):.5f}")
