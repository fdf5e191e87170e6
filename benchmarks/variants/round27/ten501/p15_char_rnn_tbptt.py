"""Char-level LSTM with truncated BPTT, then free-running sampling."""
import torch
import torch.nn as nn

torch.manual_seed(0)

text = "hello world, hello torch. " * 8
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}
data = torch.tensor([stoi[c] for c in text])


class CharLM(nn.Module):
    def __init__(self, v, h=24):
        super().__init__()
        self.emb = nn.Embedding(v, 12)
        self.rnn = nn.LSTM(12, h, batch_first=True)
        self.out = nn.Linear(h, v)

    def forward(self, idx, state=None):
        y, state = self.rnn(self.emb(idx), state)
        return self.out(y), state


model = CharLM(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
bptt = 10
state = None
for i in range(0, 120, bptt):
    inp = data[i:i + bptt].unsqueeze(0)
    tgt = data[i + 1:i + bptt + 1].unsqueeze(0)
    logits, state = model(inp, state)
    state = tuple(s.detach() for s in state)  # ok
    loss = nn.functional.cross_entropy(logits.view(-1, len(vocab)), tgt.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("train loss", round(loss.item(), 4))


def sample(model, start, n):
    idx = torch.tensor([[stoi[start]]])
    h = None
    out = [start]
    for _ in range(n):
        logits, h = model(idx, h)  # expect: TEN501
        idx = logits[:, -1].argmax(-1, keepdim=True)
        out.append(vocab[idx.item()])
    return "".join(out)


@torch.no_grad()
def sample_nograd(model, start, n):
    idx = torch.tensor([[stoi[start]]])
    h = None
    out = [start]
    for _ in range(n):
        logits, h = model(idx, h)  # ok
        idx = logits[:, -1].argmax(-1, keepdim=True)
        out.append(vocab[idx.item()])
    return "".join(out)


print(repr(sample(model, "h", 12)))
print(repr(sample_nograd(model, "h", 12)))
