"""Sampling utilities for a decoder-only LM trained with a fixed block size."""
import torch
import torch.nn.functional as F


def top_k_top_p(logits, top_k=50, top_p=0.95):
    if top_k:
        kth = torch.topk(logits, top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p < 1.0:
        sorted_logits, idx = torch.sort(logits, descending=True, dim=-1)
        cum = sorted_logits.softmax(-1).cumsum(-1)
        remove = cum - sorted_logits.softmax(-1) > top_p
        sorted_logits = sorted_logits.masked_fill(remove, float("-inf"))
        logits = torch.full_like(logits, float("-inf")).scatter(-1, idx, sorted_logits)
    return logits


@torch.no_grad()
def generate_windowed(model, prompt_ids, max_new_tokens, window=1024, pad_id=0,
                      temperature=0.8, top_k=50, top_p=0.95):
    """Keeps a fixed (B, window) context so the model always sees the same shape (CUDA-graph friendly)."""
    B, T = prompt_ids.shape
    ctx = torch.full((B, window), pad_id, dtype=torch.long, device=prompt_ids.device)
    n = min(T, window)
    ctx[:, -n:] = prompt_ids[:, -n:]
    generated = []
    for _ in range(max_new_tokens):
        logits = model(ctx)[:, -1, :] / temperature
        probs = F.softmax(top_k_top_p(logits, top_k, top_p), dim=-1)
        next_tok = torch.multinomial(probs, num_samples=1)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1:] = next_tok
        generated.append(next_tok)
    return torch.cat(generated, dim=1)


@torch.no_grad()
def generate(model, idx, max_new_tokens, block_size=1024, temperature=1.0, top_k=None):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.size(1) <= block_size else idx[:, -block_size:]
        logits = model(idx_cond)[:, -1, :] / temperature
        if top_k is not None:
            logits = top_k_top_p(logits, top_k, 1.0)
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)  # ok
    return idx
