"""Speculative large steps with rollback, and an update/weight ratio diagnostic."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(64, 5)
Y = X @ torch.tensor([[1.0], [-2.0], [0.5], [0.0], [3.0]]) + 0.1 * torch.randn(64, 1)
loss_fn = nn.MSELoss()


def loss_of(model):
    with torch.no_grad():
        return loss_fn(model(X), Y).item()


def speculative_step(model, lr):
    """Try an aggressive SGD step; undo it if the loss went up."""
    backup = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
    before = loss_of(model)
    model.zero_grad()
    loss_fn(model(X), Y).backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    after = loss_of(model)
    if after > before:
        model.load_state_dict(backup)
        return False
    return True


def speculative_step_safe(model, lr):
    backup = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    before = loss_of(model)
    model.zero_grad()
    loss_fn(model(X), Y).backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad
    if loss_of(model) > before:
        model.load_state_dict(backup)
        return False
    return True


def update_ratios(model, opt):
    prev = [p.detach() for p in model.parameters()]  # expect: TEN402
    opt.zero_grad()
    loss_fn(model(X), Y).backward()
    opt.step()
    return [((p.detach() - q).norm() / (q.norm() + 1e-12)).item() for p, q in zip(model.parameters(), prev)]


def update_ratios_safe(model, opt):
    prev = [p.detach().clone() for p in model.parameters()]  # ok
    opt.zero_grad()
    loss_fn(model(X), Y).backward()
    opt.step()
    return [((p.detach() - q).norm() / (q.norm() + 1e-12)).item() for p, q in zip(model.parameters(), prev)]


if __name__ == "__main__":
    for fn in (speculative_step, speculative_step_safe):
        model = nn.Linear(5, 1)
        accepted = [fn(model, lr) for lr in (0.05, 2.0, 0.05, 3.0)]
        print(fn.__name__, accepted, round(loss_of(model), 4))
    for fn in (update_ratios, update_ratios_safe):
        model = nn.Linear(5, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        print(fn.__name__, [round(r, 5) for r in fn(model, opt)])
