"""Random-translation augmentation implemented with slice assignments."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def translate_inplace(img, dy, dx):
    """img: (B, C, H, W); shift content down by dy and right by dx."""
    if dy > 0:
        img[:, :, dy:, :] = img[:, :, :-dy, :]  # expect: TEN403
        img[:, :, :dy, :] = 0
    if dx > 0:
        img[..., dx:] = img[..., :-dx]  # expect: TEN403
        img[..., :dx] = 0
    return img


def translate_pad(img, dy, dx):
    h, w = img.shape[-2:]
    padded = F.pad(img, (dx, 0, dy, 0))
    return padded[..., :h, :w].clone()


def translate_roll(img, dy, dx):
    out = torch.roll(img, shifts=(dy, dx), dims=(2, 3))  # ok
    out[:, :, :dy, :] = 0
    out[..., :dx] = 0
    return out


def translate_new(img, dy, dx):
    out = torch.zeros_like(img)
    out[:, :, dy:, dx:] = img[:, :, :img.shape[2] - dy, :img.shape[3] - dx]  # ok
    return out


batch = torch.rand(4, 3, 8, 8)
ref = translate_pad(batch, 2, 3)
print("roll matches pad:", torch.equal(translate_roll(batch, 2, 3), ref))
print("new tensor matches pad:", torch.equal(translate_new(batch, 2, 3), ref))
print("rows only, in place matches pad:",
      torch.equal(translate_inplace(batch.clone(), 2, 0), translate_pad(batch, 2, 0)))
print("cols only, in place matches pad:",
      torch.equal(translate_inplace(batch.clone(), 0, 3), translate_pad(batch, 0, 3)))

# channel-last batch: a shift along W is a shift in dim 2
nhwc = torch.rand(2, 8, 8, 3)
want = torch.zeros_like(nhwc)
want[:, :, 1:] = nhwc[:, :, :-1]  # ok
got = nhwc.clone()
got[:, :, 1:] = got[:, :, :-1]  # expect: TEN403
got[:, :, :1] = 0
print("NHWC shift in place matches:", torch.equal(got, want))
