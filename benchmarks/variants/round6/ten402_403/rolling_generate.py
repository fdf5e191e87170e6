"""Sampling from a fixed-context language model with a rolling token buffer.

`generate_rolling` keeps a (batch, block_size) context and slides it one
token per step; `generate_cat` is the nanoGPT-style version; the
`shift_tokens_right` helper mirrors the one in HF seq2seq models.
"""
import torch
from torch import nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=50, block_size=16, dim=32):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(block_size, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1], device=idx.device)
        h, _ = self.mix(self.tok(idx) + self.pos(pos))
        return self.head(h)


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1]  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


@torch.no_grad()
def generate_rolling(model, prompt, max_new_tokens, temperature=1.0):
    B = prompt.shape[0]
    ctx = torch.zeros(B, model.block_size, dtype=torch.long, device=prompt.device)
    n = min(prompt.shape[1], model.block_size)
    ctx[:, -n:] = prompt[:, -n:]
    out = []
    for _ in range(max_new_tokens):
        logits = model(ctx)[:, -1, :] / temperature
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        out.append(nxt)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1:] = nxt
    return torch.cat(out, dim=1)


@torch.no_grad()
def generate_cat(model, idx, max_new_tokens, temperature=1.0):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.size(1) <= model.block_size else idx[:, -model.block_size:]
        logits = model(idx_cond)[:, -1, :] / temperature
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)  # ok
    return idx


if __name__ == "__main__":
    torch.manual_seed(0)
    lm = TinyLM().eval()
    prompt = torch.randint(0, 50, (2, 20))
    print(generate_rolling(lm, prompt, 8).shape, generate_cat(lm, prompt, 8).shape)
    print(shift_tokens_right(prompt[:, :6], 0, 1))
