"""Truncated BPTT language model: hidden state carried between batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F

V = 12


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 8)
        self.rnn = nn.LSTM(8, 16, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, x, hidden):
        o, hidden = self.rnn(self.emb(x), hidden)
        return self.out(o), hidden


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = LM()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    data = torch.randint(0, V, (2, 41))
    hidden = None
    hidden_snapshots, hidden_snapshots_ok, ppl = [], [], []
    final_states = {}
    for i in range(0, 40, 8):
        x, y = data[:, i:i + 8], data[:, i + 1:i + 9]
        if hidden is not None:
            hidden = repackage_hidden(hidden)  # ok
        logits, hidden = model(x, hidden)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        hidden_snapshots.append(hidden[0])  # expect: TEN501
        hidden_snapshots_ok.append(hidden[0].detach().clone())  # ok
        final_states[i] = tuple(h.detach() for h in hidden)  # ok
        ppl.append(torch.exp(loss))  # expect: TEN501
    print(len(hidden_snapshots), float(hidden_snapshots[-1].sum()), len(final_states), float(ppl[-1]),
          float(hidden_snapshots_ok[0].sum()))


if __name__ == "__main__":
    main()
