"""Tensor-level augmentations for 32x32 CIFAR images (C, H, W)."""
import random

import torch


def _check(img: torch.Tensor) -> None:
    if img.shape[-2:] != (32, 32):
        raise ValueError(f"expected 32x32 image, got {tuple(img.shape)}")


class RandomTranslateInplace:
    """Shift the image down by 1-4 pixels, edge rows replicated."""

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        dy = random.randint(1, 4)
        img[:, dy:, :] = img[:, :-dy, :]  # expect: TEN403
        return img


class RandomTranslate:
    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        dy = random.randint(1, 4)
        out = img.clone()
        out[:, dy:, :] = img[:, :-dy, :]  # ok
        return out


class RandomRollTranslate:
    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        dx = random.randint(-4, 4)
        return torch.roll(img, shifts=dx, dims=-1)  # ok


class InterlaceArtifact:
    """Simulate a badly de-interlaced frame: odd rows are displaced by 2 pixels."""

    def __init__(self, p: float = 0.2):
        self.p = p

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        if random.random() < self.p:
            img[:, 1::2, :-2] = img[:, 1::2, 2:]  # expect: TEN403
        return img


class LineDoubling:
    """Replace even rows by the odd row beneath them (disjoint row sets)."""

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        img[:, 0::2, :] = img[:, 1::2, :]  # ok
        return img


class Cutout:
    def __init__(self, size: int = 8):
        self.size = size

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        _check(img)
        y = random.randrange(32)
        x = random.randrange(32)
        y0, y1 = max(0, y - self.size // 2), min(32, y + self.size // 2)
        x0, x1 = max(0, x - self.size // 2), min(32, x + self.size // 2)
        img[:, y0:y1, x0:x1] = 0
        return img


def build(train: bool = True):
    if not train:
        return []
    return [RandomTranslate(), RandomRollTranslate(), InterlaceArtifact(), Cutout()]
