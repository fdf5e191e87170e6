import torch
import torch.nn as nn

torch.manual_seed(0)


class Run:
    baseline_weight = None
    baseline_bias = None


layer = nn.Linear(5, 5)
Run.baseline_weight = layer.weight.data  # expect: TEN402
Run.baseline_bias = layer.bias.data.clone()  # ok
opt = torch.optim.SGD(layer.parameters(), lr=0.3, weight_decay=0.1)
x = torch.randn(20, 5)
for i in range(10):
    opt.zero_grad()
    (layer(x) ** 2).mean().backward()
    opt.step()
    dw = (layer.weight.data - Run.baseline_weight).norm().item()
    db = (layer.bias.data - Run.baseline_bias).norm().item()
    print(f"step {i} |dW| {dw:.6f} |db| {db:.6f}")
