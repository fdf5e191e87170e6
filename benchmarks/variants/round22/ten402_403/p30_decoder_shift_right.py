"""Building decoder inputs for teacher forcing (shift labels right, prepend BOS)."""
import torch

torch.manual_seed(0)
PAD, BOS = 0, 1


def shift_tokens_right(input_ids, pad_id, bos_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = bos_id
    return shifted.masked_fill(shifted == -100, pad_id)


def shift_tokens_right_no_clone(input_ids, bos_id):
    shifted = torch.empty_like(input_ids)
    shifted[:, 1:] = input_ids[:, :-1]  # ok
    shifted[:, 0] = bos_id
    return shifted


def shift_in_place(labels, bos_id):
    """Reuses the label tensor to save memory."""
    labels[:, 1:] = labels[:, :-1]  # expect: TEN403
    labels[:, 0] = bos_id
    return labels


def shift_cloned_then_in_place(labels, bos_id):
    dec = labels.clone()
    dec[:, 1:] = dec[:, :-1]  # expect: TEN403
    dec[:, 0] = bos_id
    return dec


def shift_with_index(labels, bos_id):
    n = labels.size(1)
    labels[:, 1:] = labels[:, torch.arange(n - 1)]  # ok
    labels[:, 0] = bos_id
    return labels


labels = torch.randint(5, 50, (2, 7))
print("labels           :", labels.tolist())
print("reference        :", shift_tokens_right(labels, PAD, BOS).tolist())
print("empty_like       :", shift_tokens_right_no_clone(labels, BOS).tolist())
print("advanced index   :", shift_with_index(labels.clone(), BOS).tolist())
print("cloned, in place :", shift_cloned_then_in_place(labels, BOS).tolist())
print("in place         :", shift_in_place(labels.clone(), BOS).tolist())
