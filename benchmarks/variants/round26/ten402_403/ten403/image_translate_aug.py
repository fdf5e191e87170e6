import torch

torch.manual_seed(0)


def translate_inplace(img, dx, dy):
    """Shift a batch of images right by dx and down by dy, filling the gap with edge pixels."""
    if dx > 0:
        img[:, :, :, dx:] = img[:, :, :, :-dx]  # expect: TEN403
    if dy > 0:
        img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
    return img


def translate_roll(img, dx, dy):
    out = torch.roll(img, shifts=(dy, dx), dims=(2, 3))  # ok
    out[:, :, :, :dx] = img[:, :, :, :1]  # ok
    out[:, :, :dy, :] = out[:, :, dy:dy + 1, :]  # ok
    return out


batch = torch.rand(2, 3, 8, 8)
a = translate_inplace(batch.clone(), 2, 1)
b = translate_roll(batch, 2, 1)
print("in-place column 5 of image 0:", [round(v, 4) for v in a[0, 0, 4].tolist()])
print("roll     column 5 of image 0:", [round(v, 4) for v in b[0, 0, 4].tolist()])
print("mean abs difference", round((a - b).abs().mean().item(), 4))
