"""Keep the last T hidden states of a GRU cell in a rolling tensor."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class HiddenHistory:
    def __init__(self, batch, horizon, hidden, snapshot_source):
        self.states = torch.zeros(batch, horizon, hidden)
        self.snapshot_source = snapshot_source

    def push(self, h):
        if self.snapshot_source:
            older = self.states[:, :-1].clone()  # ok
        else:
            older = self.states[:, :-1]
        self.states[:, 0] = h.detach()  # ok
        if self.snapshot_source:
            self.states[:, 1:] = older  # ok
        else:
            self.states[:, 1:] = older  # expect: TEN403

    def attention_summary(self, query):
        scores = torch.einsum("bth,bh->bt", self.states, query).softmax(1)
        return torch.einsum("bt,bth->bh", scores, self.states)


def run(snapshot_source):
    torch.manual_seed(0)
    cell = nn.GRUCell(3, 8)
    hist = HiddenHistory(2, 20, 8, snapshot_source)
    h = torch.zeros(2, 8)
    xs = torch.randn(30, 2, 3)
    for x in xs:
        with torch.no_grad():
            h = cell(x, h)
        hist.push(h)
    return hist.attention_summary(h).sum().item()


if __name__ == "__main__":
    print("view source  :", round(run(False), 5))
    print("cloned source:", round(run(True), 5))
