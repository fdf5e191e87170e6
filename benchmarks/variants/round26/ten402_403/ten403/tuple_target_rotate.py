import torch

torch.manual_seed(0)

seq = torch.arange(24.).reshape(3, 8)


def rotate_right_tuple(a):
    a = a.clone()
    a[:, 1:], a[:, :1] = a[:, :-1], a[:, -1:]  # expect: TEN403
    return a


def rotate_right_tuple_cloned(a):
    a = a.clone()
    a[:, 1:], a[:, :1] = a[:, :-1].clone(), a[:, -1:].clone()  # ok
    return a


def swap_halves(a):
    a = a.clone()
    h = a.shape[1] // 2
    a[:, :h], a[:, h:] = a[:, h:].clone(), a[:, :h].clone()  # ok
    return a


def shift_pair(a, b):
    a, b = a.clone(), b.clone()
    a[:, 2:], b[:, 2:] = a[:, :-2], b[:, :-2]  # expect: TEN403
    return a, b


print("tuple  ", rotate_right_tuple(seq)[0].tolist())
print("cloned ", rotate_right_tuple_cloned(seq)[0].tolist())
print("roll   ", torch.roll(seq, 1, 1)[0].tolist())
print("halves ", swap_halves(seq)[1].tolist())
p, q = shift_pair(seq, seq * 10)
print("pair   ", p[2].tolist(), q[2].tolist())
