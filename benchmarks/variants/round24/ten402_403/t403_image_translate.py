"""Random-translation augmentation done in place on a batch of images."""
import torch

torch.manual_seed(0)


def translate_down_inplace(img, dy):
    img[..., dy:, :] = img[..., :-dy, :]  # expect: TEN403
    img[..., :dy, :] = 0
    return img


def translate_right_inplace_cloned(img, dx):
    img[..., :, dx:] = img[..., :, :-dx].clone()  # ok
    img[..., :, :dx] = 0
    return img


def translate_up_inplace(img, dy):
    img[..., :-dy, :] = img[..., dy:, :]  # expect: TEN403
    img[..., -dy:, :] = 0
    return img


def translate_down(img, dy):
    out = torch.zeros_like(img)
    out[..., dy:, :] = img[..., :-dy, :]  # ok
    return out


if __name__ == "__main__":
    batch = torch.rand(2, 3, 8, 8)
    for fn, s in ((translate_down_inplace, 2), (translate_right_inplace_cloned, 3),
                  (translate_up_inplace, 2), (translate_down, 2)):
        out = fn(batch.clone(), s)
        print(fn.__name__, f"{out.sum().item():.5f} {out[0, 0, :, 3].sum().item():.5f}")
