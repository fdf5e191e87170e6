"""Track how far the weights moved away from where training started."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class DriftMonitor:
    def __init__(self, model, cloned):
        if cloned:
            self.reference = [p.detach().clone() for p in model.parameters()]  # ok
        else:
            self.reference = [p.detach() for p in model.parameters()]  # expect: TEN402

    def drift(self, model):
        return sum((p.detach() - r).norm().item() for p, r in zip(model.parameters(), self.reference))


def train(model, steps=4):
    opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    x, y = torch.randn(20, 3), torch.randn(20, 2)
    for _ in range(steps):
        loss = ((model(x) - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


torch.manual_seed(0)
m1 = nn.Linear(3, 2)
mon1 = DriftMonitor(m1, cloned=False)
m2 = nn.Linear(3, 2)
mon2 = DriftMonitor(m2, cloned=True)
start_weight = m1.weight  # expect: TEN402
start_bias_value = m1.bias.sum().item()  # ok
train(m1)
train(m2)
print("drift m1: %.6f" % mon1.drift(m1))
print("drift m2: %.6f" % mon2.drift(m2))
print("weight change m1: %.6f" % (m1.weight - start_weight).abs().sum().item())
print("bias change m1: %.6f" % (m1.bias.sum().item() - start_bias_value))
