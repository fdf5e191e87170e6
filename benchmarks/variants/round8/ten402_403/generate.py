"""Sampling from a character-level transformer with a fixed context window."""
import torch
import torch.nn.functional as F


@torch.no_grad()
def sample_fixed_context(model, prompt_ids, block_size, max_new_tokens, pad_id=0,
                         temperature=1.0, top_k=None, device="cuda"):
    model.eval()
    ctx = torch.full((1, block_size), pad_id, dtype=torch.long, device=device)
    n = min(len(prompt_ids), block_size)
    ctx[0, -n:] = torch.tensor(prompt_ids[-n:], dtype=torch.long, device=device)
    out = list(prompt_ids)
    for _ in range(max_new_tokens):
        logits = model(ctx)[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("inf")
        probs = F.softmax(logits, dim=-1)
        next_id = torch.multinomial(probs, num_samples=1)
        ctx[:, :-1] = ctx[:, 1:]  # expect: TEN403
        ctx[:, -1] = next_id.squeeze(-1)
        out.append(next_id.item())
    return out


@torch.no_grad()
def sample_rolling(model, idx, block_size, max_new_tokens, temperature=1.0):
    model.eval()
    ctx = idx[:, -block_size:]
    generated = [idx]
    for _ in range(max_new_tokens):
        logits = model(ctx)[:, -1, :] / temperature
        idx_next = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
        generated.append(idx_next)
        ctx = torch.cat((ctx[:, 1:], idx_next), dim=1) if ctx.size(1) == block_size else torch.cat((ctx, idx_next), dim=1)  # ok
    return torch.cat(generated, dim=1)


def decode(ids, itos):
    return "".join(itos[i] for i in ids)
