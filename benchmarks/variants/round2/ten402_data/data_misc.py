"""Quantisation, vocabulary growth, target networks and tensors from annotated helpers."""
import torch
import torch.nn as nn
from torch import Tensor


def fake_quantise_(model, bits=8):
    scale = 2 ** (bits - 1)
    for p in model.parameters():
        p.data = torch.round(p.data * scale) / scale  # expect: TEN103, TEN101


def grow_vocab(emb: nn.Embedding, extra: int) -> nn.Embedding:
    old = emb.weight.data  # expect: TEN101
    new = torch.cat([old, old.new_empty(extra, old.size(1)).normal_()])
    emb.weight.data = new  # expect: TEN103
    emb.num_embeddings = new.size(0)
    return emb


def reset_bn_stats(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.running_mean.data.zero_()  # expect: TEN102
            m.running_var.data.fill_(1.0)  # expect: TEN102


def polyak(target: nn.Module, online: nn.Module, tau: float = 0.005):
    for t, o in zip(target.parameters(), online.parameters()):
        t.data.mul_(1 - tau).add_(o.detach(), alpha=tau)  # expect: TEN102


def features(x: Tensor) -> Tensor:
    h = torch.tanh(x)
    return h.data  # expect: TEN101


def leaf_from_factory():
    z = torch.zeros(3, requires_grad=True)
    z.data[1] = 2.0  # expect: TEN102
    return z


class Holder(nn.Module):
    """A module that keeps a list called `data`: not a tensor."""

    def __init__(self, items):
        super().__init__()
        self.data = list(items)  # ok
        self.lin = nn.Linear(2, 2)

    def forward(self, x):
        self.data.append(x.shape[0])  # ok
        return self.lin(x)


def pointer_and_detach(x: Tensor):
    same = x.data_ptr() == x.detach().data_ptr()  # ok
    return same, x.detach().clone()  # ok


def state_dict_entry(model):
    sd = model.state_dict()
    return sd["weight"].data.sum()  # expect: TEN101


if __name__ == "__main__":
    lin = nn.Linear(2, 2)
    fake_quantise_(lin)
    e = grow_vocab(nn.Embedding(3, 2), 2)
    print(e.weight.shape)
    bn = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
    reset_bn_stats(bn)
    polyak(nn.Linear(2, 2), lin)
    print(features(torch.ones(2, requires_grad=True)), leaf_from_factory())
    h = Holder([1])
    h(torch.ones(3, 2))
    print(h.data, pointer_and_detach(torch.ones(2)), state_dict_entry(lin))
