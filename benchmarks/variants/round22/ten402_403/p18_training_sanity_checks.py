"""Sanity checks of the kind found in test suites: does one step change every weight?"""
import torch
from torch import nn

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 6, 2))


def one_step(model, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x = torch.randn(5, 2, 8)
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()


def report(tag, pairs):
    flags = [not torch.equal(a.detach(), b.detach()) for a, b in pairs]
    print(f"{tag:<28} changed: {flags}")


model = make_model()
before = [p for p in model.parameters()]  # expect: TEN402
before_t = [p.T for p in model.parameters() if p.dim() == 2]  # expect: TEN402
before_f = [p.float() for p in model.parameters()]  # expect: TEN402
before_c = [p.clone() for p in model.parameters()]  # ok
one_step(model)
params = list(model.parameters())  # ok
report("list of parameters", zip(before, params))
report("transposed views", zip(before_t, [p.T for p in params if p.dim() == 2]))
report(".float() on float32", zip(before_f, params))
report("clones", zip(before_c, params))

# snapshot of a model object that is then replaced (rebinding, nothing written in place)
model = make_model()
old_state = model.state_dict()  # ok
model = make_model()
one_step(model)
diff = sum((model.state_dict()[k] - old_state[k]).abs().sum().item() for k in old_state)
print(f"fresh model differs from the discarded one by {diff:.5f}")

# a parameter replaced by assignment: the old tensor keeps its values
lin = nn.Linear(3, 3)
old_w = lin.weight  # ok
lin.weight = nn.Parameter(torch.zeros(3, 3))
one_step_lin = torch.optim.SGD(lin.parameters(), lr=1.0)
lin(torch.ones(2, 3)).sum().backward()
one_step_lin.step()
print(f"old weight sum {old_w.sum().item():.5f}; new weight sum {lin.weight.sum().item():.5f}")

# contiguous() on an already contiguous weight returns the same tensor
conv = make_model()[0]
kernel0 = conv.weight.contiguous()  # expect: TEN402
with torch.no_grad():
    conv.weight.mul_(0.5)
print(f"kernel change after scaling {(conv.weight - kernel0).abs().sum().item():.5f}")
