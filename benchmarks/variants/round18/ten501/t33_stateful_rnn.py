"""Truncated BPTT language model, plus a stateful generator run without no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB = 10


class RNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 8)
        self.rnn = nn.LSTM(8, 16, batch_first=True)
        self.out = nn.Linear(16, VOCAB)

    def forward(self, x, hidden=None):
        h, hidden = self.rnn(self.emb(x), hidden)
        return self.out(h), hidden


class StatefulGenerator(nn.Module):
    """Keeps its recurrent state between calls, like a streaming decoder."""

    def __init__(self, lm):
        super().__init__()
        self.lm = lm
        self.state = None
        self.num_calls = 0

    def forward(self, token):
        logits, state = self.lm(token.view(1, 1), self.state)
        self.state = state  # expect: TEN501
        self.num_calls += 1  # ok
        return logits[0, -1]


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


model = RNNModel()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
stream = torch.randint(0, VOCAB, (2, 25))
bptt = 6
hidden = None
hidden_states = []
for i in range(0, stream.size(1) - 1 - bptt, bptt):
    x, y = stream[:, i:i + bptt], stream[:, i + 1:i + 1 + bptt]
    if hidden is not None:
        hidden = repackage_hidden(hidden)  # ok
    logits, hidden = model(x, hidden)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    hidden_states.append(hidden[0])  # expect: TEN501

gen = StatefulGenerator(model)
token = torch.tensor([1])
generated = []
for t in range(5):
    logits = gen(token)
    token = logits.argmax().view(1)
    generated.append(token.item())  # ok
print("generated:", generated, "chunks:", len(hidden_states))
