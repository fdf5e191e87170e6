"""Random translation augmentation implemented with slicing."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def translate_(img, dy, dx):
    """Shift a (B, C, H, W) batch down by dy and right by dx, in place, zero fill."""
    if dy > 0:
        img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
        img[:, :, :dy, :] = 0  # ok
    if dx > 0:
        img[..., dx:] = img[..., :-dx]  # expect: TEN403
        img[..., :dx] = 0  # ok
    return img


def translate(img, dy, dx):
    out = torch.zeros_like(img)  # ok
    out[:, :, dy:, dx:] = img[:, :, :img.shape[2] - dy, :img.shape[3] - dx]  # ok
    return out


batch = torch.arange(2 * 1 * 5 * 5, dtype=torch.float32).view(2, 1, 5, 5)
ref = translate(batch, 1, 2)
got = translate_(batch.clone(), 1, 2)
print("in-place translate matches reference:", torch.equal(ref, got))
print(got[0, 0])
