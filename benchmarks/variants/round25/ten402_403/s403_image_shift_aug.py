"""Random translation augmentation implemented with in-place slice shifts."""
import torch


def translate_inplace(img, dy, dx):
    # img: (B, C, H, W); shift content down by dy and right by dx, zero fill
    if dy > 0:
        img[..., dy:, :] = img[..., :-dy, :]  # expect: TEN403
        img[..., :dy, :] = 0  # ok
    if dx > 0:
        img[..., :, dx:] = img[..., :, :-dx]  # expect: TEN403
        img[..., :, :dx] = 0  # ok
    return img


def translate_roll(img, dy, dx):
    out = torch.roll(img, shifts=(dy, dx), dims=(-2, -1))
    out[..., :dy, :] = 0
    out[..., :, :dx] = 0
    img.copy_(out)  # ok
    return img


torch.manual_seed(0)
batch = torch.rand(2, 3, 8, 8)
a = translate_inplace(batch.clone(), 2, 3)
b = translate_roll(batch.clone(), 2, 3)
print("in-place shift checksum", round(a.sum().item(), 5))
print("roll shift checksum    ", round(b.sum().item(), 5))
print("mismatching pixels", int((a != b).sum().item()))
