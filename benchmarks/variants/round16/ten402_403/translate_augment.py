"""Random-translation augmentation for a batch of small images (N, C, H, W)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def translate_(imgs, dy, dx):
    """Shift content down by dy and right by dx pixels, zero-filling the border."""
    if dy > 0:
        imgs[:, :, dy:, :] = imgs[:, :, :-dy, :]  # expect: TEN403
        imgs[:, :, :dy, :] = 0  # ok
    if dx > 0:
        imgs[..., dx:] = imgs[..., :-dx]  # expect: TEN403
        imgs[..., :dx] = 0  # ok
    return imgs


def translate(imgs, dy, dx):
    h, w = imgs.shape[-2:]
    out = torch.zeros_like(imgs)
    out[:, :, dy:, dx:] = imgs[:, :, :h - dy, :w - dx]  # ok
    return out


def translate_pad(imgs, dy, dx):
    h, w = imgs.shape[-2:]
    padded = nn.functional.pad(imgs, (dx, 0, dy, 0))
    return padded[..., :h, :w]


def main():
    imgs = torch.rand(4, 3, 8, 8)
    for dy, dx in [(1, 2), (3, 1)]:
        ref = translate(imgs, dy, dx)
        a = translate_(imgs.clone(), dy, dx)
        b = translate_pad(imgs, dy, dx)
        print(f"shift ({dy},{dx}): in-place matches {torch.equal(a, ref)}, pad-based matches {torch.equal(b, ref)}")
    net = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    batch = translate_(imgs.clone(), 2, 2)
    print("logits", net(batch).detach().mean(0)[:3])


if __name__ == "__main__":
    main()
