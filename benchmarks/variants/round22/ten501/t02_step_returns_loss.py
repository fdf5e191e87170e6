"""backward() happens inside helper functions; the caller only sees what they return."""
import torch
import torch.nn.functional as F
from torch import nn


def make_data(n=64):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(n, 10, generator=g)
    y = (x[:, 0] + x[:, 1] > 0).long()
    return list(zip(x.split(8), y.split(8)))


def train_step(model, opt, batch):
    x, y = batch
    opt.zero_grad(set_to_none=True)
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    return loss


def train_step_scalar(model, opt, batch):
    return train_step(model, opt, batch).item()


def train_step_detached(model, opt, batch):
    loss = train_step(model, opt, batch)
    return loss.detach()


def train_step_with_acc(model, opt, batch):
    x, y = batch
    opt.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    opt.step()
    correct = (logits.argmax(dim=1) == y).sum()
    return loss, correct


def main():
    torch.manual_seed(0)
    batches = make_data()
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    total = 0.0
    history = []
    for batch in batches:
        total += train_step(model, opt, batch)  # expect: TEN501
    for batch in batches:
        loss = train_step(model, opt, batch)
        history.append(loss)  # expect: TEN501

    total_f = 0.0
    hist_det = []
    for batch in batches:
        l = train_step_scalar(model, opt, batch)
        total_f += l  # ok
    for batch in batches:
        hist_det.append(train_step_detached(model, opt, batch))  # ok

    hist_pair = []
    correct_total = 0
    for batch in batches:
        loss_b, correct = train_step_with_acc(model, opt, batch)
        hist_pair.append(loss_b)  # expect: TEN501
        correct_total += correct  # ok

    print(f"{total.item():.3f} {total_f:.3f} {len(history)} {len(hist_det)} "
          f"{len(hist_pair)} acc={int(correct_total) / 64:.2f}")


if __name__ == "__main__":
    main()
