"""Building decoder inputs / LM labels by shifting token ids."""
import torch


def shift_tokens_right(input_ids: torch.Tensor, pad_token_id: int, decoder_start_token_id: int):
    """HF-style: a new tensor, the source is cloned."""
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


def shift_tokens_right_new_buffer(input_ids, start_id):
    shifted = torch.full_like(input_ids, start_id)
    shifted[:, 1:] = input_ids[:, :-1]  # ok
    return shifted


def make_decoder_inputs_inplace(labels, start_id):
    """Reuses the labels tensor: decoder_input_ids is the same tensor, not a copy."""
    decoder_input_ids = labels
    decoder_input_ids[:, 1:] = labels[:, :-1]  # expect: TEN403
    decoder_input_ids[:, 0] = start_id
    return decoder_input_ids


def prepare_lm_batch(batch, pad_id=0):
    """Left-shift labels in place inside a collated dict."""
    batch["labels"][:, :-1] = batch["labels"][:, 1:]  # expect: TEN403
    batch["labels"][:, -1] = pad_id
    return batch


def collate(examples, pad_id=0):
    input_ids = torch.stack([torch.tensor(e) for e in examples])
    target = input_ids.clone()
    target[:, :-1] = input_ids[:, 1:]  # ok
    target[:, -1] = pad_id
    return {"input_ids": input_ids, "labels": target}


def span_corrupt_shift(ids: torch.Tensor, start: int, span: int):
    """Delete a span by moving the tail left over it (T5-style span removal)."""
    ids[:, start:-span] = ids[:, start + span:]  # expect: TEN403
    ids[:, -span:] = 0
    return ids


def delete_token(ids: torch.Tensor, pos: int):
    """Remove the token at `pos` by shifting the tail left."""
    ids[..., pos:-1] = ids[..., pos + 1:]  # expect: TEN403
    return ids


def insert_token(ids: torch.Tensor, pos: int, tok: int):
    ids[..., pos + 1:] = ids[..., pos:-1]  # expect: TEN403
    ids[..., pos] = tok
    return ids


if __name__ == "__main__":
    torch.manual_seed(0)
    lab = torch.arange(24).reshape(2, 12)
    ref = lab.clone(); ref[:, 1:] = lab[:, :-1].clone(); ref[:, 0] = 99
    print("decoder alias wrong:", (make_decoder_inputs_inplace(lab.clone(), 99) != ref).sum().item())
    b = {"labels": torch.arange(24).reshape(2, 12)}
    r = b["labels"].clone(); r[:, :-1] = b["labels"][:, 1:].clone(); r[:, -1] = 0
    print("batch labels wrong:", (prepare_lm_batch(b)["labels"] != r).sum().item())
    x = torch.arange(40).reshape(2, 20)
    r = x.clone(); r[:, 2:-3] = x[:, 5:].clone(); r[:, -3:] = 0
    print("span wrong:", (span_corrupt_shift(x.clone(), 2, 3) != r).sum().item())
    x = torch.arange(2 * 3 * 40).reshape(2, 3, 40)
    r = x.clone(); r[..., 5:] = x[..., 4:-1].clone(); r[..., 4] = -1
    print("insert wrong:", (insert_token(x.clone(), 4, -1) != r).sum().item())
    r = x.clone(); r[..., 4:-1] = x[..., 5:].clone()
    print("delete wrong:", (delete_token(x.clone(), 4) != r).sum().item())
    print(shift_tokens_right(lab, 0, 1)[0, :4], collate([[1, 2, 3], [4, 5, 6]])["labels"])
