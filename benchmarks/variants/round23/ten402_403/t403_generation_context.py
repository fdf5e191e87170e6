"""Greedy generation with a fixed-length context window of token ids."""
import torch
import torch.nn as nn

torch.manual_seed(0)
VOCAB, CTX = 11, 6
model = nn.Sequential(nn.Embedding(VOCAB, 8), nn.Flatten(), nn.Linear(8 * CTX, VOCAB))


@torch.no_grad()
def generate_batched(ctx, steps):
    """ctx: (B, CTX) long tensor; slide left and append the new token."""
    out = []
    for _ in range(steps):
        nxt = model(ctx).argmax(-1)
        ctx[:, :-1] = ctx[:, 1:]  # either: TEN403
        ctx[:, -1] = nxt
        out.append(nxt)
    return torch.stack(out, 1)


@torch.no_grad()
def generate_single(ctx, steps):
    """ctx: (CTX,) long tensor for one sequence."""
    out = []
    for _ in range(steps):
        nxt = model(ctx.unsqueeze(0)).argmax(-1)[0]
        ctx[:-1] = ctx[1:]  # expect: TEN403
        ctx[-1] = nxt
        out.append(int(nxt))
    return out


@torch.no_grad()
def generate_cat(ctx, steps):
    out = []
    for _ in range(steps):
        nxt = model(ctx.unsqueeze(0)).argmax(-1)
        ctx = torch.cat([ctx[1:], nxt])  # ok
        out.append(int(nxt))
    return out


prompt = torch.randint(0, VOCAB, (2, CTX))
print("batched:", generate_batched(prompt.clone(), 5).tolist())
print("cat:", generate_cat(prompt[0].clone(), 5))
try:
    print("single:", generate_single(prompt[0].clone(), 5))
except RuntimeError as e:
    print("single RuntimeError:", str(e).split(".")[0])
