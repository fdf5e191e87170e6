"""Truncated BPTT with a stateful wrapper: the carried state is detached, the loss log is not."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class StatefulLM(nn.Module):
    def __init__(self, vocab=20, hidden=24):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)
        self.h = None

    def forward(self, tokens):
        y, h = self.rnn(self.emb(tokens), self.h)
        self.h = h.detach()  # ok
        return self.out(y)


class LossLog:
    def __init__(self):
        self.values = []

    def add(self, v):
        self.values.append(v)

    def mean(self):
        return sum(float(v) for v in self.values) / len(self.values)


def main():
    stream = torch.randint(0, 20, (4, 121))
    lm = StatefulLM()
    opt = torch.optim.Adam(lm.parameters(), lr=3e-3)
    log, log_ok = LossLog(), LossLog()
    perp_hist = []
    bptt = 12
    for i in range(0, 120, bptt):
        inp, tgt = stream[:, i:i + bptt], stream[:, i + 1:i + 1 + bptt]
        logits = lm(inp)
        loss = nn.functional.cross_entropy(logits.reshape(-1, 20), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(lm.parameters(), 0.5)
        opt.step()
        log.add(loss)  # expect: TEN501
        log_ok.add(loss.item())  # ok
        perp_hist.append(loss.exp())  # expect: TEN501
    print("mean loss", round(log.mean(), 4), round(log_ok.mean(), 4), "ppl", round(torch.tensor(log_ok.mean()).exp().item(), 3))


main()
