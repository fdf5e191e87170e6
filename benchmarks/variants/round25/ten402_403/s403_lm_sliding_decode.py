"""Greedy decoding with a fixed context window of token ids (tiny bigram-ish LM)."""
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab, d, ctx):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(ctx, d) * 0.1)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids) + self.pos
        w = torch.softmax(torch.arange(ids.shape[1], dtype=torch.float), 0)
        return self.out((h * w[None, :, None]).sum(1))


@torch.no_grad()
def generate(lm, prompt, n, inplace):
    ids = prompt.clone()
    produced = []
    for _ in range(n):
        nxt = lm(ids).argmax(-1)
        produced.append(nxt)
        if inplace:
            ids[:, :-1] = ids[:, 1:]  # expect: TEN403
            ids[:, -1] = nxt  # ok
        else:
            ids = torch.cat([ids[:, 1:], nxt[:, None]], dim=1)  # ok
    return torch.stack(produced, 1), ids


torch.manual_seed(0)
lm = TinyLM(30, 16, 8)
prompt = torch.randint(0, 30, (2, 8))
g1, w1 = generate(lm, prompt, 12, True)
g2, w2 = generate(lm, prompt, 12, False)
print("in-place window:", g1[0].tolist())
print("cat window:     ", g2[0].tolist())
print("final windows equal", torch.equal(w1, w2))
