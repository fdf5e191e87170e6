import torch
import torch.nn as nn

torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 40)
        self.fc2 = nn.Linear(40, 40)
        self.fc3 = nn.Linear(40, 2)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

    def prunable(self):
        return [self.fc1, self.fc2, self.fc3]


def global_magnitude_prune(model, amount):
    ws = [m.weight for m in model.prunable()]
    flat = torch.cat([w.detach().abs().flatten() for w in ws])
    thr = flat.kthvalue(int(amount * flat.numel())).values
    with torch.no_grad():
        for w in ws:
            w.mul_((w.abs() > thr).to(w.dtype))


model = MLP()
x = torch.randn(100, 20)
dense_weights = [m.weight.contiguous() for m in model.prunable()]  # expect: TEN402
dense_bias = [m.bias.detach().clone() for m in model.prunable()]  # ok
with torch.no_grad():
    dense_out = model(x)

global_magnitude_prune(model, 0.6)
with torch.no_grad():
    pruned_out = model(x)
    for i, (m, w0) in enumerate(zip(model.prunable(), dense_weights)):
        removed = (w0 - m.weight).abs().sum().item()
        print(f"layer {i}: zeros {int((m.weight == 0).sum())} removed mass {removed:.6f}")
    print("bias unchanged", all(torch.equal(b, m.bias) for b, m in zip(dense_bias, model.prunable())))
print(f"output change {(dense_out - pruned_out).norm().item():.6f}")
