import torch

torch.manual_seed(0)


def random_translate_(img, max_shift=2, gen=None):
    """In-place random translation with edge replication (B, C, H, W)."""
    dx = int(torch.randint(1, max_shift + 1, (1,), generator=gen))
    dy = int(torch.randint(1, max_shift + 1, (1,), generator=gen))
    img[:, :, :, dx:] = img[:, :, :, :-dx]  # expect: TEN403
    img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
    return img, dx, dy


def translate(img, dx, dy):
    out = img.clone()
    out[:, :, :, dx:] = img[:, :, :, :-dx]  # ok
    tmp = out.clone()
    out[:, :, dy:, :] = tmp[:, :, :-dy, :]  # ok
    return out


imgs = torch.arange(2 * 3 * 6 * 6, dtype=torch.float32).view(2, 3, 6, 6)
g = torch.Generator().manual_seed(0)
shifted, dx, dy = random_translate_(imgs.clone(), gen=g)
ref = translate(imgs, dx, dy)
print("dx", dx, "dy", dy)
print("in-place row0:", shifted[0, 0, 0].tolist())
print("reference row0:", ref[0, 0, 0].tolist())
print("mismatching pixels:", int((shifted != ref).sum()))
