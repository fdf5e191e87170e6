"""Cross-validation drivers that reset a model between folds."""
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_folds(x, y, k):
    idx = torch.arange(len(x))
    for i in range(k):
        val = idx[i::k]
        mask = torch.ones(len(x), dtype=torch.bool)
        mask[val] = False
        yield (x[mask], y[mask]), (x[val], y[val])


def fit(model, data, epochs=3, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    xb, yb = data
    for _ in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(xb), yb).backward()
        opt.step()


class CrossValidator:
    def __init__(self, model, k=3):
        self.model = model
        self.k = k
        self.init = model.state_dict()  # expect: TEN402

    def run(self, x, y):
        scores = []
        for train, val in make_folds(x, y, self.k):
            self.model.load_state_dict(self.init)
            fit(self.model, train)
            with torch.no_grad():
                scores.append(F.mse_loss(self.model(val[0]), val[1]).item())
        return scores


def cv_with_while(model, x, y, k=3):
    initial_weights = model.state_dict().copy()  # expect: TEN402
    folds = list(make_folds(x, y, k))
    i = 0
    out = []
    while i < len(folds):
        model.load_state_dict(initial_weights)
        fit(model, folds[i][0])
        out.append(model(folds[i][1][0]).mean().item())
        i += 1
    return out


def cv_serialised(model, x, y, k=3):
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)  # ok
    out = []
    for train, val in make_folds(x, y, k):
        buf.seek(0)
        model.load_state_dict(torch.load(buf))
        fit(model, train)
        out.append(model(val[0]).mean().item())
    return out


def cv_fresh_model_each_fold(build, x, y, k=3):
    template = build()
    init = template.state_dict()  # either
    out = []
    for train, val in make_folds(x, y, k):
        model = build()
        model.load_state_dict(init)  # template is never trained
        fit(model, train)
        out.append(model(val[0]).mean().item())
    return out


def cv_two_constructors(x, y, k=3):
    template = nn.Linear(4, 1)
    init = template.state_dict()  # ok
    out = []
    for train, val in make_folds(x, y, k):
        model = nn.Linear(4, 1)
        model.load_state_dict(init)
        fit(model, train)
        out.append(model(val[0]).mean().item())
    return out


def cv_deepcopy_model(model, x, y, k=3):
    out = []
    for train, val in make_folds(x, y, k):
        m = copy.deepcopy(model)
        fit(m, train)
        out.append(m(val[0]).mean().item())
    return out


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(30, 4), torch.randn(30, 1)
    base = nn.Linear(4, 1)
    ref = cv_deepcopy_model(base, x, y)
    print("serialised == deepcopy:", cv_serialised(copy.deepcopy(base), x, y) == ref)
    print("fresh-model == deepcopy:", cv_fresh_model_each_fold(lambda: copy.deepcopy(base), x, y) == ref)
    print("CrossValidator == deepcopy:", CrossValidator(copy.deepcopy(base)).run(x, y) == ref)
    print("while-loop cv == deepcopy:", cv_with_while(copy.deepcopy(base), x, y) == ref)
