"""Sequence utilities that hand out views: pad-shift for teacher forcing."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

BOS = 1


def body(x, n):
    return x[:, n:]


def prefix(x, n):
    return x.narrow(1, 0, x.shape[1] - n)


def shift_right_(tokens, n=1):
    body(tokens, n).copy_(prefix(tokens, n))  # expect: TEN403
    tokens[:, :n] = BOS  # ok
    return tokens


def shift_right(tokens, n=1):
    out = tokens.new_full(tokens.shape, BOS)  # ok
    body(out, n).copy_(prefix(tokens, n))  # ok
    return out


tgt = torch.randint(3, 20, (2, 7))
dec_in = shift_right(tgt)
dec_in_ = shift_right_(tgt.clone())
print("decoder inputs equal:", torch.equal(dec_in, dec_in_))
print(dec_in[0].tolist(), dec_in_[0].tolist())
