"""Random translation augmentation for CHW image tensors."""
import random

import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


def translate_inplace(img, dx, dy):
    """Shift right by dx and down by dy, filling with zeros (modifies img)."""
    if dx > 0:
        img[..., dx:] = img[..., :-dx]  # expect: TEN403
        img[..., :dx] = 0
    if dy > 0:
        img[:, dy:, :] = img[:, :-dy, :]  # expect: TEN403
        img[:, :dy, :] = 0
    return img


def translate_new(img, dx, dy):
    out = torch.zeros_like(img)
    h, w = img.shape[-2:]
    out[:, dy:, dx:] = img[:, :h - dy, :w - dx]  # ok
    return out


def translate_pad(img, dx, dy):
    h, w = img.shape[-2:]
    padded = F.pad(img, (dx, 0, dy, 0))
    return padded[:, :h, :w]  # ok


def translate_roll(img, dx, dy):
    out = torch.roll(img, shifts=(dy, dx), dims=(-2, -1))  # ok
    out[:, :dy, :] = 0
    out[:, :, :dx] = 0
    return out


class RandomTranslate:
    def __init__(self, max_shift=3, fn=translate_new):
        self.max_shift, self.fn = max_shift, fn

    def __call__(self, img):
        dx, dy = random.randint(1, self.max_shift), random.randint(1, self.max_shift)
        return self.fn(img, dx, dy)


if __name__ == "__main__":
    img = torch.arange(3 * 8 * 8, dtype=torch.float32).reshape(3, 8, 8)
    ref = translate_new(img, 2, 1)
    for fn in (translate_pad, translate_roll):
        print(fn.__name__, torch.equal(fn(img, 2, 1), ref))
    print("translate_inplace", torch.equal(translate_inplace(img.clone(), 2, 1), ref))
    aug = RandomTranslate()
    batch = torch.stack([aug(img) for _ in range(4)])
    print("augmented batch", tuple(batch.shape), batch.sum().item())
