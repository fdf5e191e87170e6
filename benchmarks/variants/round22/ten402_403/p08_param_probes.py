"""Drift probes on individual parameters during fine-tuning of the head."""
import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 3))
opt = torch.optim.Adam(model.parameters(), lr=0.02)

# reference values taken before fine-tuning
head_w0 = model[-1].weight.reshape(-1)  # expect: TEN402
head_b0 = model[-1].bias.flatten()  # expect: TEN402
first_w0 = model[0].weight.view(-1)  # expect: TEN402
mid_b0 = torch.as_tensor(model[2].bias)  # expect: TEN402
mid_w0 = model[2].weight.detach().reshape(-1).clone()  # ok
all0 = torch.nn.utils.parameters_to_vector(model.parameters())  # ok
first_b0 = model[0].bias.detach().to(torch.float64)  # ok
with torch.no_grad():
    first_norm0 = model[0].weight.norm().item()  # ok

x = torch.randn(50, 6)
y = torch.randint(0, 3, (50,))
for _ in range(20):
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()

with torch.no_grad():
    print(f"head weight drift {(model[-1].weight.reshape(-1) - head_w0).norm().item():.5f}")
    print(f"head bias drift   {(model[-1].bias - head_b0).norm().item():.5f}")
    print(f"first weight drift {(model[0].weight.view(-1) - first_w0).norm().item():.5f}")
    print(f"mid bias drift    {(model[2].bias - mid_b0).norm().item():.5f}")
    print(f"mid weight drift  {(model[2].weight.reshape(-1) - mid_w0).norm().item():.5f}")
    total = (torch.nn.utils.parameters_to_vector(model.parameters()) - all0).norm().item()
    print(f"total drift       {total:.5f}")
    print(f"first bias drift  {(model[0].bias.double() - first_b0).norm().item():.5f}")
    print(f"first weight norm {first_norm0:.5f} -> {model[0].weight.norm().item():.5f}")
