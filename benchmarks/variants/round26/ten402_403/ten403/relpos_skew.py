import torch
import torch.nn.functional as F

torch.manual_seed(0)

B, T = 3, 6
# rel[b, i, j] = score of query i against relative distance index j (j = T-1 means distance 0)
rel = torch.randn(B, T, T)


def skew_pad_reshape(x):
    b, t, _ = x.shape
    x = F.pad(x, (1, 0))  # ok
    x = x.reshape(b, t + 1, t)[:, 1:]
    return x


def skew_inplace(x):
    """Row i is shifted left by (T-1-i) so that column j holds distance j-i."""
    x = x.clone()
    t = x.shape[-1]
    for i in range(t - 1):
        s = t - 1 - i
        x[:, i, :t - s] = x[:, i, s:]  # expect: TEN403
        x[:, i, t - s:] = 0  # ok
    return x


def unskew_inplace(x):
    x = x.clone()
    t = x.shape[-1]
    for i in range(t - 1):
        s = t - 1 - i
        x[:, i, s:] = x[:, i, :t - s]  # expect: TEN403
    return x


a = skew_pad_reshape(rel).tril()
b = skew_inplace(rel).tril()
print("pad/reshape row 4:", [round(v, 4) for v in a[0, 4].tolist()])
print("in-place    row 4:", [round(v, 4) for v in b[0, 4].tolist()])
print("lower-tri max diff", round((a - b).abs().max().item(), 4))
c = unskew_inplace(b)
print("round trip row 2:", [round(v, 4) for v in c[0, 2].tolist()])
print("orig       row 2:", [round(v, 4) for v in rel[0, 2].tolist()])
