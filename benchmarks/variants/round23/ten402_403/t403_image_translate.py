"""Simple translation augmentation for a batch of images (N, C, H, W)."""
import torch

torch.manual_seed(0)
imgs = torch.rand(2, 3, 4, 6)


def translate_right_inplace(x):
    x[..., 1:] = x[..., :-1]  # expect: TEN403
    x[..., 0] = 0
    return x


def translate_right_contig(x, s=2):
    # .contiguous() of a non-contiguous column slice returns a new tensor
    x[:, :, :, s:] = x[:, :, :, :-s].contiguous()  # ok
    x[..., :s] = 0
    return x


def mirror_border(x):
    # copy columns 4:6 onto columns 0:2 -- the two views do not overlap
    x[..., :2] = x[..., 4:6]  # ok
    return x


ref = torch.zeros_like(imgs)
ref[..., 1:] = imgs[..., :-1]  # ok
a = translate_right_inplace(imgs.clone())
b = translate_right_contig(imgs.clone(), 1)
print("inplace matches ref:", torch.allclose(a, ref), "%.6f" % a.sum().item())
print("contiguous matches ref:", torch.allclose(b, ref), "%.6f" % b.sum().item())
print("mirror sum: %.6f" % mirror_border(imgs.clone()).sum().item())
