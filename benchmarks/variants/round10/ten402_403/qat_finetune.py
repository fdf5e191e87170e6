"""Quantization-aware fine-tuning with per-channel fake-quantized weights (straight-through estimator)."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class FakeQuantSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, w, bits):
        qmax = 2 ** (bits - 1) - 1
        scale = w.abs().amax(dim=tuple(range(1, w.dim())), keepdim=True).clamp(min=1e-8) / qmax
        return (w / scale).round().clamp(-qmax - 1, qmax) * scale

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class QConv2d(nn.Conv2d):
    bits = 8

    def forward(self, x):
        w = FakeQuantSTE.apply(self.weight, self.bits)
        return F.conv2d(x, w, self.bias, self.stride, self.padding, self.dilation, self.groups)


class QLinear(nn.Linear):
    bits = 8

    def forward(self, x):
        return F.linear(x, FakeQuantSTE.apply(self.weight, self.bits), self.bias)


def swap_to_fake_quant(model, skip=()):
    for name, child in model.named_children():
        if name in skip:
            continue
        if type(child) is nn.Conv2d:
            child.__class__ = QConv2d
        elif type(child) is nn.Linear:
            child.__class__ = QLinear
        else:
            swap_to_fake_quant(child, skip)
    return model


def qat_finetune(model, loader, epochs=3, lr=1e-4, keep_float=("conv1.weight", "fc.weight"),
                 out_dir="qat_out", device="cuda"):
    os.makedirs(out_dir, exist_ok=True)
    model.to(device)
    torch.save(model.state_dict(), os.path.join(out_dir, "fp32_init.pt"))  # ok
    float_params = {n: p.data for n, p in model.named_parameters() if p.dim() > 1}  # expect: TEN402

    swap_to_fake_quant(model, skip=("conv1", "fc"))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()

    # first/last layers stay in float and go back to their pre-QAT values
    with torch.no_grad():
        for n, p in model.named_parameters():
            if n in keep_float:
                p.data.copy_(float_params[n])

    shift = {n: (p.detach() - float_params[n]).abs().max().item()
             for n, p in model.named_parameters() if n in float_params}
    torch.save({"model": model.state_dict(), "weight_shift": shift}, os.path.join(out_dir, "qat.pt"))
    return model, shift
