"""Top-p / top-k sampling utilities."""
import torch
import torch.nn.functional as F


def top_p_filter(logits: torch.Tensor, top_p: float = 0.9, min_tokens_to_keep: int = 1):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    sorted_indices_to_remove = cumulative_probs > top_p
    if min_tokens_to_keep > 1:
        sorted_indices_to_remove[..., :min_tokens_to_keep] = 0
    # shift right to keep also the first token above the threshold
    sorted_indices_to_remove[..., 1:] = sorted_indices_to_remove[..., :-1]  # expect: TEN403
    sorted_indices_to_remove[..., 0] = 0
    indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
    return logits.masked_fill(indices_to_remove, float("-inf"))


def nucleus_mask(probs: torch.Tensor, p: float):
    sorted_probs, idx = probs.sort(dim=-1, descending=True)
    remove = sorted_probs.cumsum(-1) > p
    remove[:, 1:] = remove[:, :-1]  # expect: TEN403
    remove[:, 0] = False
    return remove.scatter(-1, idx, remove)


def top_p_filter_safe(logits: torch.Tensor, top_p: float = 0.9):
    sorted_logits, sorted_indices = torch.sort(logits, descending=True)
    cumulative_probs = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
    to_remove = cumulative_probs > top_p
    to_remove[..., 1:] = to_remove[..., :-1].clone()  # ok: TEN403
    to_remove[..., 0] = 0
    return logits.masked_fill(to_remove.scatter(1, sorted_indices, to_remove), float("-inf"))


def top_p_filter_subtract(logits: torch.Tensor, top_p: float = 0.9):
    """Keeps tokens whose cumulative probability *before* them is below p: no shift needed."""
    probs_sort, probs_idx = torch.sort(torch.softmax(logits, dim=-1), dim=-1, descending=True)
    probs_sum = torch.cumsum(probs_sort, dim=-1)
    mask = probs_sum - probs_sort > top_p
    probs_sort[mask] = 0.0  # ok: TEN403
    return probs_sort, probs_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    lg = torch.randn(4, 50)
    a, b = top_p_filter(lg), top_p_filter_safe(lg)
    print("differs from safe:", not torch.equal(a, b))
    print(nucleus_mask(torch.softmax(lg, -1), 0.5).sum())
    top_p_filter_subtract(lg)
