"""Sliding-window KV cache for incremental decoding."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, HEADS, WIN, D = 2, 2, 4, 3


class SlidingKV:
    def __init__(self):
        self.k = torch.zeros(B, HEADS, WIN, D)
        self.v = torch.zeros(B, HEADS, WIN, D)
        self.filled = 0

    def append(self, k_new, v_new):
        if self.filled == WIN:
            self.k[:, :, :-1], self.v[:, :, :-1] = self.k[:, :, 1:], self.v[:, :, 1:]  # expect: TEN403
            self.k[:, :, -1], self.v[:, :, -1] = k_new, v_new  # ok
        else:
            self.k[:, :, self.filled] = k_new  # ok
            self.v[:, :, self.filled] = v_new  # ok
            self.filled += 1

    def attend(self, q):
        return F.scaled_dot_product_attention(q, self.k[:, :, :self.filled], self.v[:, :, :self.filled])


class SlidingKVCat(SlidingKV):
    def append(self, k_new, v_new):
        if self.filled == WIN:
            self.k = torch.cat([self.k[:, :, 1:], k_new[:, :, None]], dim=2)  # ok
            self.v = torch.cat([self.v[:, :, 1:], v_new[:, :, None]], dim=2)  # ok
        else:
            super().append(k_new, v_new)


c1, c2 = SlidingKV(), SlidingKVCat()
for t in range(7):
    k, v = torch.randn(B, HEADS, D), torch.randn(B, HEADS, D)
    c1.append(k, v)
    c2.append(k, v)
q = torch.randn(B, HEADS, 1, D)
print("attention mismatch:", (c1.attend(q) - c2.attend(q)).abs().max().item())
