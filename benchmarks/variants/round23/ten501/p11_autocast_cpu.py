"""Mixed precision on CPU with bfloat16 autocast."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
scaled_losses, plain = [], []
amp_logits, logits_cpu = [], []
for it in range(4):
    x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    scaled_losses.append(loss.float())  # expect: TEN501
    plain.append(float(loss))  # ok
    amp_logits.append(logits)  # expect: TEN501
    logits_cpu.append(logits.detach().cpu())  # ok
print(len(scaled_losses), plain[-1], amp_logits[0].dtype, len(logits_cpu))
