"""Mixed precision on CPU: autocast(bfloat16) + GradScaler('cpu')."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu")

loss_hist = []
scaled_hist = []
scale_hist = []
float_hist = []
bf16_logits = []

for step in range(10):
    x = torch.randn(8, 16)
    y = torch.randint(0, 4, (8,))
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        logits = model(x)
        loss = F.cross_entropy(logits, y)
    opt.zero_grad(set_to_none=True)
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(opt)
    scaler.update()

    loss_hist.append(loss.float())  # expect: TEN501
    scaled_hist.append(scaled)  # expect: TEN501
    scale_hist.append(scaler.get_scale())  # ok
    float_hist.append(float(loss))  # ok
    bf16_logits.append(logits.detach().float())  # ok

print("dtype", loss.dtype, logits.dtype)
print("loss", round(float(loss_hist[-1]), 4), round(float_hist[-1], 4), "scaled", round(float(scaled_hist[-1]), 2))
print("scale", scale_hist[-1], "logits", tuple(torch.cat(bf16_logits).shape))
