"""Fixed-context autoregressive generation with a tiny GRU language model."""
import torch
from torch import nn

torch.manual_seed(0)


class TinyLM(nn.Module):
    def __init__(self, vocab, d):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        out, _ = self.rnn(self.emb(ids))
        return self.head(out[:, -1])


@torch.no_grad()
def generate_single(model, prompt, n):
    ctx = prompt.clone()  # (1, T)
    out = []
    for _ in range(n):
        nxt = model(ctx).argmax(-1)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1] = nxt
        out.append(int(nxt))
    return out


@torch.no_grad()
def generate_batch(model, prompts, n):
    ctx = prompts.clone()  # (B, T)
    outs = []
    for _ in range(n):
        nxt = model(ctx).argmax(-1)
        ctx[:, :-1] = ctx[:, 1:]  # either: TEN403
        ctx[:, -1] = nxt
        outs.append(nxt)
    return torch.stack(outs, 1).tolist()


@torch.no_grad()
def generate_cat(model, prompts, n):
    ctx = prompts
    outs = []
    for _ in range(n):
        nxt = model(ctx).argmax(-1, keepdim=True)
        ctx = torch.cat([ctx[:, 1:], nxt], dim=1)  # ok
        outs.append(nxt)
    return torch.cat(outs, 1).tolist()


@torch.no_grad()
def generate_prepend(model, prompts, n):
    """Context stored newest-first (reversed order) to match a right-to-left encoder."""
    ctx = prompts.flip(1).clone()
    outs = []
    for _ in range(n):
        nxt = model(ctx.flip(1)).argmax(-1)
        ctx[:, 1:] = ctx[:, :-1]  # expect: TEN403
        ctx[:, 0] = nxt
        outs.append(nxt)
    return torch.stack(outs, 1).tolist()


model = TinyLM(13, 8)
prompts = torch.randint(0, 13, (3, 6))
print("batched (cat)    :", generate_cat(model, prompts, 6))
print("batched (inplace):", generate_batch(model, prompts, 6))
print("prepend          :", generate_prepend(model, prompts, 6))
try:
    print("single           :", generate_single(model, prompts[:1], 6))
except RuntimeError as err:
    print("single failed:", str(err).split(".")[0])
