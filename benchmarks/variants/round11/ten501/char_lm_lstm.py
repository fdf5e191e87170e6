import math

import torch
from torch import nn


class CharLSTM(nn.Module):
    def __init__(self, vocab, emb=64, hidden=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, tokens, state=None):
        out, state = self.rnn(self.embed(tokens), state)
        return self.proj(out), state


def batches(data, bsz, bptt):
    n = data.size(0) // bsz
    data = data[: n * bsz].view(bsz, n)
    for i in range(0, n - 1, bptt):
        seq = min(bptt, n - 1 - i)
        yield data[:, i : i + seq], data[:, i + 1 : i + 1 + seq]


def fit(model, data, epochs=2, lr=2e-3, bptt=35):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    crit = nn.CrossEntropyLoss()
    step_losses = []
    ppl_curve = []
    for epoch in range(epochs):
        state = None
        for inp, tgt in batches(data, 16, bptt):
            if state is not None:
                state = tuple(s.detach() for s in state)  # ok
            logits, state = model(inp, state)
            loss = crit(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.5)
            opt.step()
            step_losses.append(loss)  # expect: TEN501
            ppl_curve.append(math.exp(loss.item()))  # ok
        print(f"epoch {epoch} mean ppl {sum(ppl_curve[-50:]) / max(1, len(ppl_curve[-50:])):.2f}")
    return step_losses, ppl_curve


@torch.no_grad()
def sample(model, start, length=100, temperature=1.0):
    model.eval()
    tokens = [start]
    state = None
    inp = torch.tensor([[start]])
    for _ in range(length):
        logits, state = model(inp, state)
        probs = torch.softmax(logits[0, -1] / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        tokens.append(int(nxt))  # ok
        inp = nxt.view(1, 1)
    return tokens


if __name__ == "__main__":
    corpus = torch.randint(0, 50, (5000,))
    lm = CharLSTM(50)
    fit(lm, corpus)
    print(sample(lm, 3)[:20])
