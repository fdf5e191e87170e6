"""Truncated BPTT language-model style training over one long sequence."""
import torch
import torch.nn as nn

torch.manual_seed(0)

V, H, BPTT = 12, 16, 5
seq = torch.randint(0, V, (61, 2))


class RNNLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.LSTM(H, H)
        self.out = nn.Linear(H, V)

    def forward(self, x, hidden):
        o, hidden = self.rnn(self.emb(x), hidden)
        return self.out(o), hidden


def init_hidden(bsz):
    return (torch.zeros(1, bsz, H), torch.zeros(1, bsz, H))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


crit = nn.CrossEntropyLoss()


def train(model, opt):
    hidden = init_hidden(2)
    total = 0.0
    for i in range(0, seq.size(0) - 1, BPTT):
        data, target = seq[i:i + BPTT], seq[i + 1:i + 1 + BPTT]
        output, new_hidden = model(data, hidden)
        hidden = repackage_hidden(new_hidden)  # ok
        loss = crit(output.view(-1, V), target.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    return total / 12


def evaluate_stateful(model, data_source):
    """Forgot torch.no_grad(): the hidden state drags every chunk's graph along."""
    model.eval()
    hidden = init_hidden(2)
    total = 0.0
    for i in range(0, data_source.size(0) - 1, BPTT):
        data, target = data_source[i:i + BPTT], data_source[i + 1:i + 1 + BPTT]
        output, new_hidden = model(data, hidden)
        hidden = new_hidden  # expect: TEN501
        total += len(data) * crit(output.view(-1, V), target.reshape(-1)).item()
    return total / (data_source.size(0) - 1)


def evaluate(model, data_source):
    model.eval()
    hidden = init_hidden(2)
    total = 0.0
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, BPTT):
            data, target = data_source[i:i + BPTT], data_source[i + 1:i + 1 + BPTT]
            output, new_hidden = model(data, hidden)
            hidden = new_hidden  # ok
            total += len(data) * crit(output.view(-1, V), target.reshape(-1)).item()
    return total / (data_source.size(0) - 1)


model = RNNLM()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(2):
    model.train()
    tr = train(model, opt)
    print(f"epoch {epoch} train {tr:.4f} val {evaluate(model, seq):.4f} val_leaky {evaluate_stateful(model, seq):.4f}")
