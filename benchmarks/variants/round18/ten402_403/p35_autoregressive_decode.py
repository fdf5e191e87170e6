"""Greedy decoding with a fixed-size context window for a tiny causal LM."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, CTX, B = 11, 8, 3


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.pos = nn.Embedding(CTX, 16)
        self.mix = nn.Linear(16, 16)
        self.out = nn.Linear(16, VOCAB)

    def forward(self, tokens, positions):
        h = self.emb(tokens) + self.pos(positions)
        h = torch.tanh(self.mix(h)).cumsum(1) / torch.arange(1, tokens.shape[1] + 1).view(1, -1, 1)
        return self.out(h)


@torch.no_grad()
def generate_inplace(model, prompt, steps):
    ctx = prompt.clone()
    pos = torch.arange(CTX).expand(B, CTX).clone()
    produced = []
    for _ in range(steps):
        nxt = model(ctx, pos)[:, -1].argmax(-1)
        produced.append(nxt)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1] = nxt
    return torch.stack(produced, 1)


@torch.no_grad()
def generate_cat(model, prompt, steps):
    ctx = prompt.clone()
    pos = torch.arange(CTX).expand(B, CTX)
    produced = []
    for _ in range(steps):
        nxt = model(ctx, pos)[:, -1].argmax(-1)
        produced.append(nxt)
        ctx = torch.cat([ctx[:, 1:], nxt[:, None]], dim=1)  # ok
    return torch.stack(produced, 1)


@torch.no_grad()
def generate_scatter(model, prompt, steps):
    ctx = prompt.clone()
    pos = torch.arange(CTX).expand(B, CTX)
    produced = []
    for _ in range(steps):
        nxt = model(ctx, pos)[:, -1].argmax(-1)
        produced.append(nxt)
        shifted = torch.empty_like(ctx)
        shifted[:, :-1] = ctx[:, 1:]  # ok
        shifted[:, -1] = nxt  # ok
        ctx = shifted
    return torch.stack(produced, 1)


if __name__ == "__main__":
    model = TinyLM()
    prompt = torch.randint(0, VOCAB, (B, CTX))
    a = generate_cat(model, prompt, 12)
    for fn in (generate_inplace, generate_scatter):
        print(fn.__name__, "matches cat:", torch.equal(fn(model, prompt, 12), a))
    print(a.tolist())
