import torch
import torch.nn.functional as F

torch.manual_seed(0)

B, H, W, D = 2, 2, 5, 4


class SlidingKVCache:
    def __init__(self):
        self.k = torch.zeros(B, H, W, D)
        self.v = torch.zeros(B, H, W, D)
        self.len = 0

    def append(self, k_new, v_new):
        if self.len == W:
            self.k[:, :, :-1] = self.k[:, :, 1:]  # expect: TEN403
            self.v[:, :, :-1] = self.v[:, :, 1:]  # expect: TEN403
            self.k[:, :, -1] = k_new  # ok
            self.v[:, :, -1:] = v_new[:, :, None]  # ok
        else:
            self.k[:, :, self.len] = k_new  # ok
            self.v[:, :, self.len] = v_new
            self.len += 1


def attend(q, cache):
    k, v = cache.k[:, :, :cache.len], cache.v[:, :, :cache.len]
    return F.scaled_dot_product_attention(q[:, :, None], k, v).squeeze(2)


cache = SlidingKVCache()
ref_k = []
for t in range(9):
    q, kn, vn = torch.randn(B, H, D), torch.randn(B, H, D), torch.randn(B, H, D)
    cache.append(kn, vn)
    ref_k.append(kn)
    out = attend(q, cache)
    print(f"t={t} out sum {out.sum().item():.5f}")
ref = torch.stack(ref_k[-W:], 2)
print("window matches reference:", torch.allclose(cache.k, ref))
