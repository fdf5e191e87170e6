import torch
import torch.nn as nn

torch.manual_seed(0)


class L2SP(nn.Module):
    """Penalty that pulls fine-tuned weights towards the pre-trained starting point."""

    def __init__(self, model, alpha=0.5):
        super().__init__()
        self.alpha = alpha
        self.anchor = {n: p.to(p.dtype) for n, p in model.named_parameters()}  # expect: TEN402

    def forward(self, model):
        return self.alpha * sum((p - self.anchor[n]).pow(2).sum() for n, p in model.named_parameters())


backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
X = torch.randn(20, 10)
Y = torch.randn(20, 1)
reg = L2SP(backbone, alpha=0.5)
start = {n: p.detach().clone() for n, p in backbone.named_parameters()}  # ok
opt = torch.optim.SGD(backbone.parameters(), lr=0.05)
for step in range(50):
    opt.zero_grad()
    fit = nn.functional.mse_loss(backbone(X), Y)
    loss = fit + reg(backbone)
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(f"step {step}: fit {fit.item():.6f} total {loss.item():.6f}")
print(f"distance from start {sum((p - start[n]).norm() for n, p in backbone.named_parameters()).item():.6f}")
