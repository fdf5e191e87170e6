"""Build teacher-forcing decoder inputs by shifting target tokens right."""
import torch

torch.manual_seed(0)
BOS = 1
labels = torch.randint(3, 20, (2, 7))

# correct: write the shifted labels into a separate tensor
dec_in = labels.new_full(labels.shape, BOS)
dec_in[:, 1:] = labels[:, :-1]  # ok
print("dec_in:", dec_in.tolist())

# correct: concatenate
dec_cat = torch.cat([labels.new_full((2, 1), BOS), labels[:, :-1]], dim=1)  # ok
print("dec_cat:", dec_cat.tolist())


def shift_right_inplace(tokens, bos):
    """Reuses the label buffer to save memory."""
    tokens[:, 1:] = tokens[:, :-1]  # expect: TEN403
    tokens[:, 0] = bos
    return tokens


shifted = shift_right_inplace(labels.clone(), BOS)
print("inplace:", shifted.tolist())
print("matches reference:", torch.equal(shifted, dec_cat))
