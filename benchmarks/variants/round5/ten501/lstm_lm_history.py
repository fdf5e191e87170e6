"""Character-level LSTM LM with truncated BPTT; keeps last-position outputs for analysis."""
import torch
import torch.nn as nn

VOCAB, EMB, HID, BPTT, BATCH = 27, 16, 64, 20, 8


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.LSTM(EMB, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, inp, hidden=None):
        h, hidden = self.rnn(self.emb(inp), hidden)
        return self.out(h), hidden


def batchify(seq, bsz):
    nb = seq.size(0) // bsz
    return seq[: nb * bsz].view(bsz, -1)


def main(epochs=2):
    torch.manual_seed(0)
    corpus = torch.randint(0, VOCAB, (BATCH * BPTT * 12 + 1,))
    data = batchify(corpus, BATCH)
    model = CharLM()
    crit = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    history = torch.empty(0, VOCAB)
    pred_tokens = torch.empty(0, dtype=torch.long)
    for epoch in range(epochs):
        hidden = None
        for i in range(0, data.size(1) - 1, BPTT):
            seq_len = min(BPTT, data.size(1) - 1 - i)
            inp = data[:, i:i + seq_len]
            tgt = data[:, i + 1:i + 1 + seq_len]
            if hidden is not None:
                hidden = tuple(h.detach() for h in hidden)
            out, hidden = model(inp, hidden)
            loss = crit(out.reshape(-1, VOCAB), tgt.reshape(-1))
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 0.25)
            opt.step()
            history = torch.cat((history, out[:, -1]))  # expect: TEN501
            pred_tokens = torch.cat((pred_tokens, out[:, -1].argmax(-1)))  # ok
        print(f"epoch {epoch}: loss {loss.item():.3f} kept {history.shape[0]} rows")


if __name__ == "__main__":
    main()
