"""K-fold cross validation that re-initialises the model between folds."""
import io
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(60, 5)
Y = X @ torch.tensor([[0.5], [-1.0], [2.0], [0.0], [1.0]]) + 0.2 * torch.randn(60, 1)


def folds(n, k):
    idx = torch.arange(n)
    size = n // k
    for i in range(k):
        val = idx[i * size:(i + 1) * size]
        yield torch.cat([idx[:i * size], idx[(i + 1) * size:]]), val


def fit_eval(model, tr, va, epochs=25):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(epochs):
        opt.zero_grad()
        nn.functional.mse_loss(model(X[tr]), Y[tr]).backward()
        opt.step()
    with torch.no_grad():
        return nn.functional.mse_loss(model(X[va]), Y[va]).item()


def cross_validate(reset_source, k=3):
    torch.manual_seed(0)
    model = nn.Linear(5, 1)
    if reset_source == "copy-method":
        init_sd = model.state_dict().copy()  # expect: TEN402
    elif reset_source == "ordered-dict":
        init_sd = OrderedDict((k, v.clone()) for k, v in model.state_dict().items())  # ok
    else:
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        buf.seek(0)
        init_sd = torch.load(buf)  # ok
    scores, starts = [], []
    for tr, va in folds(len(X), k):
        model.load_state_dict(init_sd)
        starts.append(model.weight.detach().clone())  # ok
        scores.append(round(fit_eval(model, tr, va), 4))
    same_start = all(torch.equal(starts[0], s) for s in starts)
    return scores, same_start


if __name__ == "__main__":
    for src in ("copy-method", "ordered-dict", "bytes"):
        print(src, cross_validate(src))
