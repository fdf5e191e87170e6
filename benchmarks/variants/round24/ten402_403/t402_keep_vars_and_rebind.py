"""keep_vars=True state dicts, Parameter re-binding and dtype conversion look-alikes."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def step(model, x, y, lr=0.1, n=4):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(n):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def total(sd):
    return sum(v.detach().double().pow(2).sum().item() for v in sd.values())


if __name__ == "__main__":
    x = torch.randn(20, 4)
    y = torch.randn(20, 2)

    model = nn.Linear(4, 2)
    state = model.state_dict(keep_vars=True)  # expect: TEN402
    state_ok = {k: v.detach().clone() for k, v in model.state_dict(keep_vars=True).items()}  # ok
    step(model, x, y)
    print(f"keep_vars live {total(state):.6f} cloned {total(state_ok):.6f}")

    # re-binding fresh Parameters does not touch the old tensors
    model2 = nn.Linear(4, 2)
    before = model2.state_dict()  # ok
    model2.weight = nn.Parameter(torch.zeros(2, 4))
    model2.bias = nn.Parameter(torch.ones(2))
    print(f"rebind: before {total(before):.6f} now {total(model2.state_dict()):.6f}")

    # .double() converts by replacing param.data with a new tensor
    model3 = nn.Linear(4, 2)
    ref32 = model3.state_dict()  # ok
    model3.double()
    step(model3, x.double(), y.double())
    print(f"double: ref {total(ref32):.6f} now {total(model3.state_dict()):.6f}")

    # in-place re-initialisation does touch them
    model4 = nn.Linear(4, 2)
    pre_reset = dict(model4.named_parameters())  # expect: TEN402
    nn.init.zeros_(model4.weight)
    nn.init.constant_(model4.bias, 0.5)
    print(f"reset: pre {total(pre_reset):.6f} now {total(model4.state_dict()):.6f}")
