"""Test-time BatchNorm re-estimation on a shifted domain, then undo it."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def build():
    return nn.Sequential(nn.Linear(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 2))


def stash_alias(model):
    saved = {n: b for n, b in model.named_buffers()}  # expect: TEN402
    return saved


def stash_clone(model):
    saved = {n: b.clone() for n, b in model.named_buffers()}  # ok
    return saved


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def adapt_and_undo(stash):
    torch.manual_seed(0)
    model = build()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(256, 4)
    y = (x[:, 0] * x[:, 1] > 0).long()
    model.train()
    for _ in range(50):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    src_acc = evaluate(model, x, y)
    saved = stash(model)
    shifted = 3.0 * x + 1.5
    model.train()
    with torch.no_grad():
        for chunk in shifted.split(32):
            model(chunk)
    tgt_acc = evaluate(model, shifted, y)
    for name, buf in model.named_buffers():
        buf.copy_(saved[name])
    return src_acc, tgt_acc, evaluate(model, x, y)


if __name__ == "__main__":
    for fn in (stash_alias, stash_clone):
        print(fn.__name__, [round(a, 3) for a in adapt_and_undo(fn)])
