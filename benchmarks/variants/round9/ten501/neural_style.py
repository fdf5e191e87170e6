"""Gatys-style neural style transfer optimizing the pixels directly with Adam."""
import torch
import torch.nn.functional as F
import torchvision.transforms.functional as TF
from PIL import Image
from torchvision.models import VGG19_Weights, vgg19

CONTENT_LAYER = 21
STYLE_LAYERS = (0, 5, 10, 19, 28)
IMAGENET_MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
IMAGENET_STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def load_image(path, size, device):
    img = Image.open(path).convert("RGB")
    img = TF.resize(img, size)
    return TF.to_tensor(img).unsqueeze(0).to(device)


class VGGFeatures(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = vgg19(weights=VGG19_Weights.IMAGENET1K_V1).features[:29].eval()
        self.layers.requires_grad_(False)

    def forward(self, x):
        x = (x - IMAGENET_MEAN.to(x.device)) / IMAGENET_STD.to(x.device)
        feats = {}
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i in STYLE_LAYERS or i == CONTENT_LAYER:
                feats[i] = x
        return feats


def gram(f):
    b, c, h, w = f.shape
    f = f.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


def total_variation(img):
    return (img[..., 1:, :] - img[..., :-1, :]).abs().mean() + (img[..., :, 1:] - img[..., :, :-1]).abs().mean()


def stylize(content_path, style_path, size=512, steps=1000, lr=0.02,
            c_weight=1.0, s_weight=1e5, tv_weight=1e-2, device="cuda"):
    vgg = VGGFeatures().to(device)
    content = load_image(content_path, size, device)
    style = load_image(style_path, size, device)
    with torch.no_grad():
        content_target = vgg(content)[CONTENT_LAYER]
        style_grams = {l: gram(f) for l, f in vgg(style).items() if l in STYLE_LAYERS}

    img = content.clone().requires_grad_(True)
    opt = torch.optim.Adam([img], lr=lr)
    style_hist, content_hist, snapshots = [], [], []
    for step in range(steps):
        feats = vgg(img)
        c_loss = F.mse_loss(feats[CONTENT_LAYER], content_target)
        s_loss = sum(F.mse_loss(gram(feats[l]), style_grams[l]) for l in STYLE_LAYERS)
        loss = c_weight * c_loss + s_weight * s_loss + tv_weight * total_variation(img)

        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            img.clamp_(0, 1)

        style_hist.append(s_loss)  # expect: TEN501
        content_hist.append(c_loss.item())  # ok
        if step % 100 == 0:
            snapshots.append(img.detach().clone().cpu())  # ok
            print(f"step {step}: content {content_hist[-1]:.4f} style {float(style_hist[-1]):.6f}")
    return img.detach().cpu(), snapshots, style_hist, content_hist


if __name__ == "__main__":
    out, snaps, *_ = stylize("content.jpg", "style.jpg")
    TF.to_pil_image(out.squeeze(0)).save("stylized.jpg")
