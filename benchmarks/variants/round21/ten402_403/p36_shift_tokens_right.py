"""Building decoder inputs for teacher forcing (seq2seq): shift the labels one position to the
right and put the decoder start token first, as in HF `shift_tokens_right`."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

PAD, START = 0, 1


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


def shift_tokens_right_inplace(input_ids, pad_token_id, decoder_start_token_id):
    """'Saves an allocation' by reusing the labels tensor (caller passes a copy)."""
    input_ids[:, 1:] = input_ids[:, :-1]  # expect: TEN403
    input_ids[:, 0] = decoder_start_token_id
    input_ids.masked_fill_(input_ids == -100, pad_token_id)
    return input_ids


def shift_tokens_left(labels, pad_token_id):
    """Causal-LM style: labels shifted left for next-token prediction, pad at the end."""
    out = torch.full_like(labels, pad_token_id)
    out[:, :-1] = labels[:, 1:]  # ok
    return out


class Collator:
    def __init__(self, clone):
        self.clone = clone

    def __call__(self, labels):
        dec = labels.clone()
        if self.clone:
            dec[:, 1:] = dec[:, :-1].clone()  # ok
        else:
            dec[:, 1:] = dec[:, :-1]  # expect: TEN403
        dec[:, 0] = START
        return {"labels": labels, "decoder_input_ids": dec}


if __name__ == "__main__":
    labels = torch.tensor([[5, 6, 7, 8, -100], [9, 10, 11, -100, -100]])
    print("shift_tokens_right        :", shift_tokens_right(labels, PAD, START).tolist())
    print("shift_tokens_right_inplace:", shift_tokens_right_inplace(labels.clone(), PAD, START).tolist())
    print("shift_tokens_left         :", shift_tokens_left(labels, PAD).tolist())
    for clone in (False, True):
        print(f"Collator(clone={clone!s:5})   :", Collator(clone)(labels)["decoder_input_ids"].tolist())
