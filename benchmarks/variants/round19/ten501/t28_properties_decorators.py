"""Loss tracking hidden behind a property setter and a logging decorator."""
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F


def log_result(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        wrapper.calls.append(result)  # expect: TEN501
        return result
    wrapper.calls = []
    return wrapper


def log_scalar_result(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        wrapper.calls.append(float(result.detach()))  # ok
        return result
    wrapper.calls = []
    return wrapper


class LossBook:
    def __init__(self):
        self._history = []
        self._values = []

    @property
    def last(self):
        return self._history[-1] if self._history else None

    @last.setter
    def last(self, value):
        self._history.append(value)

    @property
    def last_value(self):
        return self._values[-1]

    @last_value.setter
    def last_value(self, value):
        self._values.append(float(value))


@log_result
def compute_loss(model, x, y):
    return F.mse_loss(model(x), y)


@log_scalar_result
def compute_aux(model, x):
    return model(x).pow(2).mean()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(3, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    book = LossBook()
    for step in range(4):
        x, y = torch.randn(8, 3), torch.randn(8, 1)
        loss = compute_loss(model, x, y) + 0.1 * compute_aux(model, x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        book.last = loss  # expect: TEN501
        book.last_value = loss.detach()  # ok
    print(len(compute_loss.calls), sum(compute_aux.calls), float(book.last), book.last_value)


if __name__ == "__main__":
    main()
