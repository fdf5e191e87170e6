"""TENT-style test-time adaptation with a reset() back to the source model."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Tent(nn.Module):
    def __init__(self, model, steps=2):
        super().__init__()
        self.model = model
        self.steps = steps
        params = [p for m in model.modules() if isinstance(m, nn.BatchNorm1d) for p in m.parameters()]
        self.optimizer = torch.optim.SGD(params, lr=0.5)
        self.model_state = model.state_dict()  # expect: TEN402
        self.model_state_ok = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        self.opt_state0 = self.optimizer.state_dict()  # ok

    def reset(self, use_naive):
        self.model.load_state_dict(self.model_state if use_naive else self.model_state_ok)

    def forward(self, x):
        for _ in range(self.steps):
            logits = self.model(x)
            ent = -(logits.softmax(1) * logits.log_softmax(1)).sum(1).mean()
            ent.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
        return self.model(x)


base = nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
src_bias = base[1].bias.detach().clone()
tent = Tent(base)
tent.train()
for _ in range(3):
    tent(torch.randn(16, 5) * 2 + 1)
tent.reset(use_naive=True)
naive_gap = (base[1].bias - src_bias).abs().sum().item()
tent.reset(use_naive=False)
ok_gap = (base[1].bias - src_bias).abs().sum().item()
print(f"after reset: naive gap={naive_gap:.4f} proper gap={ok_gap:.4f}")
