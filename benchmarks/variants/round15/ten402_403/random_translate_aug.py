"""Random translation augmentation for image batches (B, C, H, W)."""
import random

import torch
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


def translate_inplace(img, max_shift=3):
    dx, dy = random.randint(1, max_shift), random.randint(1, max_shift)
    img[..., dx:] = img[..., :-dx]  # expect: TEN403
    img[..., :dx] = 0  # ok
    img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
    img[:, :, :dy, :] = 0  # ok
    return img


def translate_pad(img, max_shift=3):
    dx, dy = random.randint(1, max_shift), random.randint(1, max_shift)
    H, W = img.shape[-2:]
    return F.pad(img, (dx, 0, dy, 0))[..., :H, :W]  # ok


def translate_roll(img, max_shift=3):
    dx = random.randint(1, max_shift)
    out = torch.roll(img, shifts=dx, dims=-1)  # ok
    out[..., :dx] = 0  # ok
    return out


def random_crop(img, pad=2):
    B, C, H, W = img.shape
    padded = F.pad(img, (pad, pad, pad, pad), mode="replicate")
    i, j = random.randint(0, 2 * pad), random.randint(0, 2 * pad)
    return padded[..., i:i + H, j:j + W].clone()  # ok


if __name__ == "__main__":
    batch = torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).view(2, 3, 8, 8)
    random.seed(1)
    a = translate_inplace(batch.clone())
    random.seed(1)
    b = translate_pad(batch.clone())
    print("in-place translate matches pad translate:", torch.equal(a, b))
    print(translate_roll(batch.clone()).shape, random_crop(batch).shape)
