"""Character-level LM trained in chunks: hidden state carried between chunks."""
import torch
from torch import nn

VOCAB = 11


class CharLM(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 8)
        self.rnn = nn.LSTM(8, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, x, state=None):
        h, state = self.rnn(self.emb(x), state)
        return self.out(h), state


def repackage(state):
    if isinstance(state, torch.Tensor):
        return state.detach()
    return tuple(repackage(s) for s in state)


def chunks(stream, bptt):
    for i in range(0, stream.size(1) - 1 - bptt + 1, bptt):
        yield stream[:, i:i + bptt], stream[:, i + 1:i + 1 + bptt]


def train_per_document(model, docs, bptt=6):
    """Accumulates chunk gradients and steps once per document."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for doc in docs:
        hidden = None
        opt.zero_grad()
        for x, y in chunks(doc, bptt):
            logits, hidden = model(x, hidden)  # expect: TEN501
            loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
            loss.backward(retain_graph=True)
        opt.step()


def train_truncated(model, docs, bptt=6):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    hidden = None
    for doc in docs:
        for x, y in chunks(doc, bptt):
            if hidden is not None:
                hidden = repackage(hidden)
            logits, hidden = model(x, hidden)  # ok
            loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    return hidden


def stream_scores(model, doc, bptt=5):
    """Stateful scoring of a long stream; nobody wrapped it in no_grad."""
    hidden = None
    nll = []
    for x, y in chunks(doc, bptt):
        logits, hidden = model(x, hidden)  # expect: TEN501
        nll.append(nn.functional.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1)).item())  # ok
    return sum(nll) / len(nll)


def stream_scores_safe(model, doc, bptt=5):
    hidden = None
    nll = []
    with torch.no_grad():
        for x, y in chunks(doc, bptt):
            logits, hidden = model(x, hidden)  # ok
            nll.append(nn.functional.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1)))  # ok
    return float(sum(nll) / len(nll))


def gru_cell_detached(docs, bptt=5):
    torch.manual_seed(1)
    emb = nn.Embedding(VOCAB, 6)
    cell = nn.GRUCell(6, 12)
    head = nn.Linear(12, VOCAB)
    params = list(emb.parameters()) + list(cell.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=1e-2)
    h = torch.zeros(docs[0].size(0), 12)
    for doc in docs:
        for x, y in chunks(doc, bptt):
            h = h.detach()
            loss = 0.0
            for t in range(x.size(1)):
                h = cell(emb(x[:, t]), h)  # ok
                loss = loss + nn.functional.cross_entropy(head(h), y[:, t])  # ok
            opt.zero_grad()
            loss.backward()
            opt.step()
    return h


if __name__ == "__main__":
    torch.manual_seed(0)
    docs = [torch.randint(0, VOCAB, (4, 31)) for _ in range(2)]
    train_per_document(CharLM(), docs)
    lm = CharLM()
    h2 = train_truncated(lm, docs)
    s1 = stream_scores(lm, docs[0])
    s2 = stream_scores_safe(lm, docs[0])
    h3 = gru_cell_detached(docs)
    print(h2[0].shape, round(s1, 4), round(s2, 4), h3.shape)
