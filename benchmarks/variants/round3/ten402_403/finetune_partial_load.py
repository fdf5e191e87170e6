"""Fine-tune a detection backbone from an ImageNet classifier checkpoint (partial state-dict load)."""
import logging

import torch
import torch.nn as nn
import torchvision

log = logging.getLogger("finetune")


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        r = torchvision.models.resnet34()
        self.stem = nn.Sequential(r.conv1, r.bn1, r.relu, r.maxpool)
        self.layer1, self.layer2, self.layer3, self.layer4 = r.layer1, r.layer2, r.layer3, r.layer4

    def forward(self, x):
        x = self.stem(x)
        c2 = self.layer1(x)
        c3 = self.layer2(c2)
        c4 = self.layer3(c3)
        return c3, c4, self.layer4(c4)


def remap_key(k):
    for old, new in (("conv1.", "stem.0."), ("bn1.", "stem.1.")):
        if k.startswith(old):
            return new + k[len(old):]
    return k


def load_imagenet_weights(model):
    src = torchvision.models.resnet34(weights="IMAGENET1K_V1")
    pretrained_dict = {remap_key(k): v for k, v in src.state_dict().items() if not k.startswith("fc.")}
    model_dict = model.state_dict()
    matched = {k: v for k, v in pretrained_dict.items() if k in model_dict and v.shape == model_dict[k].shape}
    log.info("loading %d/%d tensors from ImageNet checkpoint", len(matched), len(model_dict))
    model_dict.update(matched)
    model.load_state_dict(model_dict)
    return model


def freeze_bn(model):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
            m.weight.requires_grad_(False)
            m.bias.requires_grad_(False)


def train(model, head, loader, criterion, epochs=12, device="cuda"):
    model = load_imagenet_weights(model).to(device)
    head = head.to(device)
    params = [p for p in list(model.parameters()) + list(head.parameters()) if p.requires_grad]
    opt = torch.optim.SGD(params, lr=0.01, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        freeze_bn(model)
        for images, targets in loader:
            images = images.to(device)
            feats = model(images)
            loss = criterion(head(feats), targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
        log.info("epoch %d loss %.4f", epoch, loss.item())
        torch.save({"backbone": model.state_dict(), "head": head.state_dict(), "epoch": epoch},
                   f"ckpt_{epoch:02d}.pth")
    return model, head
