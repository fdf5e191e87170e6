"""Token shifting helpers for seq2seq / causal LM training."""
import torch
import torch.nn.functional as F

PAD, BOS, IGNORE = 0, 1, -100


def shift_tokens_right(input_ids, start_id=BOS, pad_id=PAD):
    """Decoder inputs for teacher forcing, built in a fresh tensor."""
    shifted = input_ids.new_full(input_ids.shape, pad_id)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = start_id
    return shifted.masked_fill(shifted == IGNORE, pad_id)


def shift_right_inplace(input_ids, start_id=BOS):
    """Memory-saving variant used by the streaming collator: rewrites the batch."""
    input_ids[:, 1:] = input_ids[:, :-1]  # expect: TEN403
    input_ids[:, 0] = start_id
    return input_ids


def next_token_labels(labels):
    """Turn aligned labels into next-token targets, in place."""
    labels[:, :-1] = labels[:, 1:]  # expect: TEN403
    labels[:, -1] = IGNORE
    return labels


def shift_with_mask(tokens, mask, start_id=BOS):
    tokens[:, 1:], mask[:, 1:] = tokens[:, :-1], mask[:, :-1]  # expect: TEN403
    tokens[:, 0], mask[:, 0] = start_id, 1
    return tokens, mask


def causal_lm_loss(logits, labels):
    shift_logits = logits[..., :-1, :].contiguous()  # ok
    shift_labels = labels[..., 1:].contiguous()  # ok
    return F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1), ignore_index=IGNORE)


def left_pad_to_right_pad(batch, lengths, pad_id=PAD):
    out = torch.full_like(batch, pad_id)
    width = batch.shape[1]
    for i, n in enumerate(lengths):
        out[i, :n] = batch[i, width - n:]  # ok
    return out


def collate(seqs, pad_id=PAD):
    width = max(len(s) for s in seqs)
    batch = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        batch[i, : len(s)] = torch.as_tensor(s)
    return batch


if __name__ == "__main__":
    batch = collate([[5, 6, 7, 8], [9, 10, 11], [12, 13]])
    print("decoder inputs (copy):   ", shift_tokens_right(batch).tolist())
    print("decoder inputs (inplace):", shift_right_inplace(batch.clone()).tolist())
    print("next-token labels:", next_token_labels(batch.clone()).tolist())
    logits = torch.randn(3, 4, 20)
    print("lm loss", round(causal_lm_loss(logits, batch).item(), 3))
    toks, m = shift_with_mask(batch.clone(), (batch != PAD).long())
    print("shifted with mask", toks.tolist(), m.tolist())
