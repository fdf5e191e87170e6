"""Random-translation augmentation done in place on a (C, H, W) image tensor,
edge pixels replicated, compared with an out-of-place implementation."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def translate_inplace(img, dx, dy):
    """Shift content right by dx and down by dy (dx, dy >= 0), replicate the border."""
    if dx > 0:
        img[..., dx:] = img[..., :-dx]  # expect: TEN403
        img[..., :dx] = img[..., dx:dx + 1]  # ok
    if dy > 0:
        img[:, dy:, :] = img[:, :-dy, :]  # expect: TEN403
        img[:, :dy, :] = img[:, dy:dy + 1, :]  # ok
    return img


def translate_left_inplace(img, dx):
    """Shift content left by dx, replicate the right border."""
    img[..., :-dx] = img[..., dx:]  # either: TEN403
    img[..., -dx:] = img[..., -dx - 1:-dx]  # ok
    return img


def translate(img, dx, dy):
    out = img.clone()
    if dx > 0:
        out[..., dx:] = img[..., :-dx]  # ok
        out[..., :dx] = img[..., :1]
    if dy > 0:
        src = out.clone()
        out[:, dy:, :] = src[:, :-dy, :]  # ok
        out[:, :dy, :] = src[:, :1, :]
    return out


def translate_left(img, dx):
    out = img.clone()
    out[..., :-dx] = img[..., dx:]
    out[..., -dx:] = img[..., -1:]
    return out


if __name__ == "__main__":
    img = torch.arange(3 * 5 * 6, dtype=torch.float32).view(3, 5, 6)
    for dx, dy in ((2, 0), (0, 1), (1, 2)):
        ref = translate(img, dx, dy)
        got = translate_inplace(img.clone(), dx, dy)
        print(f"dx={dx} dy={dy}: in-place matches out-of-place: {torch.equal(got, ref)}; "
              f"row0 ch0 in-place={got[0, 0].tolist()} ref={ref[0, 0].tolist()}; col0 ch1 in-place={got[1, :, 0].tolist()}")
    got = translate_left_inplace(img.clone(), 2)
    print(f"left dx=2: in-place matches: {torch.equal(got, translate_left(img, 2))} row0={got[0, 0].tolist()}")
