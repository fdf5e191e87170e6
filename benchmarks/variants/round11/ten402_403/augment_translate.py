"""Random translation augmentation for 32x32 images (CIFAR-like), tensor in / tensor out."""
import random

import torch
from torch.utils.data import Dataset


class RandomShiftInplace:
    def __init__(self, max_shift: int = 4, fill: float = 0.0):
        self.max_shift = max_shift
        self.fill = fill

    def __call__(self, img: torch.Tensor) -> torch.Tensor:  # (C, H, W), already a private copy
        dx = random.randint(1, self.max_shift)
        img[..., dx:] = img[..., :-dx]  # expect: TEN403
        img[..., :dx] = self.fill
        dy = random.randint(-self.max_shift, self.max_shift)
        if dy != 0:
            img.copy_(torch.roll(img, shifts=dy, dims=-2))  # ok
            if dy > 0:
                img[..., :dy, :] = self.fill
            else:
                img[..., dy:, :] = self.fill
        return img


def shift_batch(images: torch.Tensor, dx: torch.Tensor, fill: float = 0.0) -> torch.Tensor:
    """Per-sample horizontal shift written into a fresh output tensor."""
    out = torch.full_like(images, fill)
    for i in range(images.shape[0]):
        s = int(dx[i])
        if s > 0:
            out[i, ..., s:] = images[i, ..., :-s]  # ok
        elif s < 0:
            out[i, ..., :s] = images[i, ..., -s:]  # ok
        else:
            out[i] = images[i]
    return out


class ToyImages(Dataset):
    def __init__(self, n=1000, transform=None):
        self.data = torch.rand(n, 3, 32, 32)
        self.labels = torch.randint(0, 10, (n,))
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        img = self.data[idx].clone()
        if self.transform is not None:
            img = self.transform(img)
        return img, self.labels[idx]


if __name__ == "__main__":
    ds = ToyImages(transform=RandomShiftInplace())
    x, y = ds[3]
    print(x.shape, shift_batch(torch.rand(4, 3, 32, 32), torch.tensor([2, -3, 0, 1])).shape)
