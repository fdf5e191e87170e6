"""Metric recording through closures and functools.partial."""
import functools
import torch
import torch.nn as nn

torch.manual_seed(0)


def make_recorder(store):
    def record(value):
        store.append(value)
    return record


def append_metric(registry, name, value):
    registry.setdefault(name, []).append(value)


def make_scalar_recorder():
    values = []

    def record(value):
        values.append(float(value))
    record.values = values
    return record


losses, registry, registry_ok = [], {}, {}
log_loss = make_recorder(losses)
log_scalar = make_scalar_recorder()
record_out = functools.partial(append_metric, registry, "out_norm")
record_out_ok = functools.partial(append_metric, registry_ok, "out_norm")

model = nn.Sequential(nn.Linear(4, 8), nn.Softplus(), nn.Linear(8, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(9):
    x = torch.randn(12, 4)
    out = model(x)
    loss = (out - x.flip(1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log_loss(loss)  # expect: TEN501
    log_scalar(loss)  # ok
    record_out(out.norm())  # expect: TEN501
    record_out_ok(out.norm().item())  # ok

print("closure", round(losses[-1].item(), 4), "scalar", round(log_scalar.values[-1], 4))
print("partial", round(registry["out_norm"][-1].item(), 3), round(registry_ok["out_norm"][-1], 3))
