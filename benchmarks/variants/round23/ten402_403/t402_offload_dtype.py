"""Keep in-memory copies of the weights in different formats before a risky update."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
sd = model.state_dict()

on_cpu = {k: v.cpu() for k, v in sd.items()}  # expect: TEN402
to_cpu = {k: v.to("cpu") for k, v in sd.items()}  # expect: TEN402
as_f32 = {k: v.float() for k, v in sd.items()}  # expect: TEN402
as_f16 = {k: v.half() for k, v in sd.items()}  # ok
as_f64 = {k: v.to(torch.float64) for k, v in sd.items()}  # ok

# risky update: a large in-place perturbation
with torch.no_grad():
    for p in model.parameters():
        p.add_(torch.randn_like(p))


def gap(snap):
    return sum((model.state_dict()[k].double() - snap[k].double()).abs().sum().item() for k in snap)


print("gap .cpu(): %.4f" % gap(on_cpu))
print("gap .to('cpu'): %.4f" % gap(to_cpu))
print("gap .float(): %.4f" % gap(as_f32))
print("gap .half(): %.4f" % gap(as_f16))
print("gap .to(float64): %.4f" % gap(as_f64))
