"""word_language_model-style truncated BPTT with repackaged hidden state."""
import math

import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken=25, ninp=12, nhid=16):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid = nhid

    def forward(self, x, hidden):
        out, hidden = self.rnn(self.encoder(x), hidden)
        return self.decoder(out), hidden

    def init_hidden(self, bsz):
        return (torch.zeros(1, bsz, self.nhid), torch.zeros(1, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def train_epoch(model, data, opt, bptt=5, ntokens=25):
    model.train()
    total_loss = 0.0
    log_ppl = []
    hidden = model.init_hidden(data.size(1))
    for batch, i in enumerate(range(0, data.size(0) - 1, bptt)):
        seq_len = min(bptt, data.size(0) - 1 - i)
        x, y = data[i:i + seq_len], data[i + 1:i + 1 + seq_len]
        hidden = repackage_hidden(hidden)
        opt.zero_grad()
        output, hidden = model(x, hidden)
        chunk_losses = []
        for t in range(seq_len):
            chunk_losses.append(nn.functional.cross_entropy(output[t], y[t]))  # ok
        loss = torch.stack(chunk_losses).mean()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
        total_loss += loss.item()  # ok
        log_ppl.append(math.exp(loss.item()))  # ok
    return total_loss / (batch + 1), log_ppl


if __name__ == "__main__":
    torch.manual_seed(0)
    data = torch.randint(0, 25, (21, 3))
    model = RNNModel()
    opt = torch.optim.SGD(model.parameters(), lr=1.0)
    curve = []
    for epoch in range(2):
        avg, ppl = train_epoch(model, data, opt)
        curve.append(avg)  # ok
    print(curve, round(ppl[-1], 2))
