"""Greedy generation with a fixed-length context window of token ids."""
import torch
import torch.nn as nn


class CharModel(nn.Module):
    def __init__(self, vocab=96, window=64, dim=128):
        super().__init__()
        self.window = window
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(window, dim))
        layer = nn.TransformerEncoderLayer(dim, 4, 256, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        mask = nn.Transformer.generate_square_subsequent_mask(ids.shape[1])
        return self.out(self.enc(self.emb(ids) + self.pos, mask=mask, is_causal=True))


@torch.no_grad()
def generate(model, prompt_ids, n_new):
    ctx = prompt_ids[:, -model.window:].clone()
    produced = []
    for _ in range(n_new):
        nxt = model(ctx)[:, -1].argmax(-1)
        produced.append(nxt)
        ctx[..., :-1].copy_(ctx[..., 1:])  # expect: TEN403
        ctx[..., -1] = nxt
    return torch.stack(produced, 1)


@torch.no_grad()
def generate_cat(model, prompt_ids, n_new):
    ctx = prompt_ids[:, -model.window:]
    produced = []
    for _ in range(n_new):
        nxt = model(ctx)[:, -1].argmax(-1, keepdim=True)
        produced.append(nxt)
        ctx = torch.cat([ctx[:, 1:], nxt], dim=1)  # ok
    return torch.cat(produced, 1)


@torch.no_grad()
def generate_roll(model, prompt_ids, n_new):
    ctx = prompt_ids[:, -model.window:].clone()
    produced = []
    for _ in range(n_new):
        nxt = model(ctx)[:, -1].argmax(-1)
        produced.append(nxt)
        ctx = ctx.roll(-1, dims=1)  # ok
        ctx[:, -1] = nxt
    return torch.stack(produced, 1)


@torch.no_grad()
def right_aligned_pad(ids, pad_id, n_pad):
    """Make room for n_pad pad tokens at the front, dropping the right end (n_pad < width / 2)."""
    width = ids.shape[1]
    ids.narrow(1, n_pad, width - n_pad).copy_(ids.narrow(1, 0, width - n_pad))  # expect: TEN403
    ids[:, :n_pad] = pad_id
    return ids


if __name__ == "__main__":
    m = CharModel().eval()
    prompt = torch.randint(0, 96, (2, 80))
    a = generate(m, prompt, 10)
    b = generate_cat(m, prompt, 10)
    c = generate_roll(m, prompt, 10)
    print(torch.equal(b.squeeze(-1) if b.dim() == 3 else b, c), a.shape)
    print(right_aligned_pad(torch.arange(24).view(2, 12), -1, 3))
