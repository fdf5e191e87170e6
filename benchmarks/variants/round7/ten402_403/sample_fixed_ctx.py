"""Sampling helpers for a small GPT trained with a fixed block size and learned absolute positions."""
import torch
import torch.nn.functional as F


def _filter_logits(logits, temperature, top_k):
    logits = logits / max(temperature, 1e-5)
    if top_k is not None:
        v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
        logits[logits < v[:, [-1]]] = -float("inf")
    return logits


@torch.no_grad()
def generate(model, idx, max_new_tokens, block_size, temperature=1.0, top_k=None):
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.size(1) <= block_size else idx[:, -block_size:]
        logits = _filter_logits(model(idx_cond)[:, -1, :], temperature, top_k)
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)
    return idx


@torch.no_grad()
def sample_fixed_context(model, prompt_ids, max_new_tokens, block_size, pad_id=0, temperature=0.8, top_k=40, device="cuda"):
    """Always feeds exactly block_size tokens so the positional embeddings line up with training."""
    ctx = torch.full((1, block_size), pad_id, dtype=torch.long, device=device)
    n = min(len(prompt_ids), block_size)
    ctx[0, -n:] = torch.tensor(prompt_ids[-n:], dtype=torch.long, device=device)
    out = list(prompt_ids)
    for _ in range(max_new_tokens):
        logits = _filter_logits(model(ctx)[:, -1, :], temperature, top_k)
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1:] = nxt  # ok
        out.append(int(nxt))
    return out


@torch.no_grad()
def stream_tokens(model, prompt, block_size, max_new_tokens, decode, temperature=1.0):
    window = prompt[:, -block_size:]
    for _ in range(max_new_tokens):
        logits = _filter_logits(model(window)[:, -1, :], temperature, None)
        nxt = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        if window.size(1) < block_size:
            window = torch.cat((window, nxt), dim=1)
        else:
            window = torch.cat((window[:, 1:], nxt), dim=1)  # ok
        yield decode(nxt[0].tolist())
