"""Pixel-shift augmentations for small image batches (C, H, W tensors)."""
import torch


def translate_right_inplace(img, dx):
    """Shift content right by dx pixels, replicating the left border."""
    if dx <= 0:
        return img
    img[:, :, dx:] = img[:, :, :-dx]  # expect: TEN403
    img[:, :, :dx] = img[:, :, dx:dx + 1]  # ok
    return img


def translate_right(img, dx):
    if dx <= 0:
        return img.clone()
    out = torch.empty_like(img)
    out[:, :, dx:] = img[:, :, :-dx]  # ok
    out[:, :, :dx] = img[:, :, :1]  # ok
    return out


def translate_down_inplace(img, dy):
    if dy <= 0:
        return img
    img[:, dy:, :] = img[:, :-dy, :].clone()  # ok
    img[:, :dy, :] = 0  # ok
    return img


def translate_left_inplace(img, dx):
    if dx <= 0:
        return img
    img[:, :, :-dx] = img[:, :, dx:]  # either
    img[:, :, -dx:] = 0
    return img


def jitter_odd_rows(frame, s):
    """Simulate interlacing artefacts: odd scanlines lag behind by s pixels."""
    frame[1::2, s:] = frame[1::2, :-s]  # expect: TEN403
    return frame


def jitter_odd_rows_back(frame, s):
    frame[1::2, :-s] = frame[1::2, s:]  # either
    return frame


def swap_halves(img):
    w = img.shape[-1] // 2
    left = img[..., :w].clone()
    img[..., :w] = img[..., w:2 * w]  # ok
    img[..., w:2 * w] = left  # ok
    return img


if __name__ == "__main__":
    base = torch.arange(2 * 4 * 8, dtype=torch.float32).view(2, 4, 8)
    a = translate_right_inplace(base.clone(), 3)
    b = translate_right(base, 3)
    print("in-place right shift matches out-of-place:", torch.equal(a, b))
    print("row 0 in-place :", a[0, 0].tolist())
    print("row 0 reference:", b[0, 0].tolist())
    print("down shift ok:", torch.equal(translate_down_inplace(base.clone(), 1)[:, 1:], base[:, :-1]))
    print("left shift:", translate_left_inplace(base.clone(), 2)[0, 0].tolist())
    f = torch.arange(36, dtype=torch.float32).view(6, 6)
    print("odd-row jitter:", jitter_odd_rows(f.clone(), 2)[1].tolist(), "expected", [6.0, 7.0, 6.0, 7.0, 8.0, 9.0])
    print("odd-row jitter back:", jitter_odd_rows_back(f.clone(), 2)[1].tolist())
    print("swap halves:", swap_halves(base.clone())[0, 0].tolist())
