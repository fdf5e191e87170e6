import os
import tempfile
import torch
import torch.nn as nn

torch.manual_seed(0)

tmpdir = tempfile.mkdtemp()
model = nn.GRU(3, 4, batch_first=True)
head = nn.Linear(4, 1)
params = list(model.parameters()) + list(head.parameters())
opt = torch.optim.RMSprop(params, lr=0.02)
x = torch.randn(16, 10, 3)
y = x.sum((1, 2))[:, None] / 10

first_epoch = None
for epoch in range(6):
    opt.zero_grad()
    out, _ = model(x)
    loss = nn.functional.mse_loss(head(out[:, -1]), y)
    loss.backward()
    opt.step()
    if epoch == 0:
        first_epoch = model.state_dict()  # expect: TEN402
        torch.save(model.state_dict(), os.path.join(tmpdir, "epoch0_now.pt"))  # ok
        hi_prec = {k: v.double() for k, v in model.state_dict().items()}  # ok
    print(f"epoch {epoch} loss {loss.item():.6f}")

torch.save(first_epoch, os.path.join(tmpdir, "epoch0_late.pt"))
a = torch.load(os.path.join(tmpdir, "epoch0_now.pt"))
b = torch.load(os.path.join(tmpdir, "epoch0_late.pt"))
for k in sorted(a):
    print(f"{k}: now-vs-late diff {(a[k] - b[k]).abs().max().item():.6f} "
          f"double-vs-now {(hi_prec[k].float() - a[k]).abs().max().item():.6f}")
