import torch

torch.manual_seed(0)

PAD, BOS = 0, 1


def shift_tokens_right(input_ids, pad_token_id, start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = start_token_id  # ok
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


def make_decoder_inputs(labels):
    """Teacher forcing: reuse the label buffer to save an allocation."""
    dec = labels
    dec[:, 1:] = dec[:, :-1]  # expect: TEN403
    dec[:, 0] = BOS  # ok
    return dec


def make_targets_left(labels):
    tgt = labels.clone()
    tgt[:, :-1] = tgt[:, 1:]  # expect: TEN403
    tgt[:, -1] = PAD  # ok
    return tgt


labels = torch.randint(2, 30, (3, 9))
print("hf style   ", shift_tokens_right(labels, PAD, BOS)[0].tolist())
print("next tokens", make_targets_left(labels)[0].tolist())
print("reused buf ", make_decoder_inputs(labels.clone())[0].tolist())
print("labels     ", labels[0].tolist())
