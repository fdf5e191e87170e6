"""Grow segmentation masks by a few pixels before computing a boundary loss."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

masks = torch.zeros(2, 6, 10, dtype=torch.bool)
masks[:, 2:4, 3:5] = True  # ok


def dilate_right_(m, r):
    for _ in range(r):
        m[..., 1:] |= m[..., :-1]  # expect: TEN403
    return m


def dilate_down_(m, r):
    for _ in range(r):
        m[:, 1:, :] |= m[:, :-1, :].clone()  # ok
    return m


def dilate_pool(m, r):
    k = 2 * r + 1
    return F.max_pool2d(m[:, None].float(), k, stride=1, padding=r)[:, 0].bool()


a = dilate_right_(masks.clone(), 1)
b = dilate_down_(masks.clone(), 1)
c = dilate_pool(masks, 1)
print("right-dilated row:", a[0, 2].int().tolist())
print("down-dilated col:", b[0, :, 3].int().tolist(), "pool area:", c[0].sum().item())
