"""Measuring a model on calibration batches in train mode (e.g. to collect activation
statistics for quantisation) without letting those batches move the BatchNorm running stats."""
import contextlib

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def _bn_buffers(model):
    return {n: b for n, b in model.named_buffers() if "running_" in n}  # expect: TEN402


def _bn_buffers_copy(model):
    return {n: b.detach().clone() for n, b in model.named_buffers() if "running_" in n}  # ok


@contextlib.contextmanager
def frozen_bn_stats(model, safe):
    if safe:
        saved = _bn_buffers_copy(model)  # ok
    else:
        saved = _bn_buffers(model)  # either: TEN402
    try:
        yield
    finally:
        with torch.no_grad():
            for n, b in model.named_buffers():
                if n in saved:
                    b.copy_(saved[n])


def make_model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4))
    m.train()
    with torch.no_grad():
        for _ in range(5):
            m(torch.randn(16, 3, 8, 8))
    return m


if __name__ == "__main__":
    calib = [torch.randn(16, 3, 8, 8) * 3 + 2 for _ in range(4)]
    for safe in (False, True):
        model = make_model()
        before = model[1].running_mean.clone()
        act_max = 0.0
        with frozen_bn_stats(model, safe), torch.no_grad():
            for x in calib:
                act_max = max(act_max, model[:3](x).amax().item())
        drift = (model[1].running_mean - before).abs().max().item()
        print(f"safe={safe}: calibration act max={act_max:.4f} running_mean drift after context={drift:.5f}")
