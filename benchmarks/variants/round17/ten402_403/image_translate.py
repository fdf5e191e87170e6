"""Random-translation augmentation for a small image classifier."""
import random

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


def shift_right_inplace(img, s):
    img[..., s:] = img[..., :-s]  # expect: TEN403
    img[..., :s] = 0  # ok
    return img


def shift_down_inplace(img, s):
    img[:, :, s:, :] = img[:, :, :-s, :]  # expect: TEN403
    img[:, :, :s, :] = 0  # ok
    return img


def shift_right_padded(img, s):
    out = torch.zeros_like(img)
    out[..., s:] = img[..., :-s]  # ok
    return out


def shift_wrap(img, s):
    return torch.roll(img, shifts=(s, s), dims=(2, 3))  # ok


AUGMENTS = [shift_right_inplace, shift_down_inplace, shift_right_padded, shift_wrap]


def main():
    net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    imgs = torch.zeros(8, 1, 12, 12)
    imgs[:4, :, 3:9, 5:7] = 1.0  # ok
    imgs[4:, :, 5:7, 3:9] = 1.0  # ok
    labels = torch.tensor([0] * 4 + [1] * 4)
    for epoch in range(3):
        for aug in AUGMENTS:
            batch = aug(imgs.clone(), random.randint(1, 3))
            opt.zero_grad()
            loss = nn.functional.cross_entropy(net(batch), labels)
            loss.backward()
            opt.step()
            print(epoch, f"{aug.__name__:>20}", round(loss.item(), 4), round(batch.sum().item(), 1))


if __name__ == "__main__":
    main()
