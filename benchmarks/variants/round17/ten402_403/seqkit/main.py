from collections import OrderedDict

import torch
from torch import nn

from .buffers import ClonedHelperShiftRegister, HelperShiftRegister, RollShiftRegister, ShiftRegister
from .features import build

torch.manual_seed(0)
torch.set_num_threads(1)


def fir_filter(register_cls, signal, taps):
    reg = register_cls(signal.shape[0], taps.numel())
    out = []
    for t in range(signal.shape[1]):
        state = reg.push(signal[:, t])
        out.append(state @ taps)
    return torch.stack(out, 1)


def forecaster(feature_names, keep_clone):
    torch.manual_seed(0)
    series = torch.sin(torch.linspace(0, 12, 48)).repeat(8, 1) + 0.1 * torch.randn(8, 48)
    x = build(series[:, :-1], feature_names)
    y = series[:, -1:]
    model = nn.Sequential(nn.Linear(x.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    best, best_loss = None, float("inf")
    for step in range(30):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if loss.item() < best_loss and step < 12:
            best_loss = loss.item()
            if keep_clone:
                best = OrderedDict((k, v.clone()) for k, v in model.state_dict().items())  # ok
            else:
                best = OrderedDict(model.state_dict())  # expect: TEN402
    model.load_state_dict(best)
    with torch.no_grad():
        return best_loss, nn.functional.mse_loss(model(x), y).item()


def main():
    signal = torch.randn(3, 60)
    taps = 0.8 ** torch.arange(24.0)
    ref = None
    for cls in (RollShiftRegister, ShiftRegister, HelperShiftRegister, ClonedHelperShiftRegister):
        y = fir_filter(cls, signal, taps)
        ref = y if ref is None else ref
        print(f"{cls.__name__:>26}: matches roll register = {torch.allclose(y, ref)}")
    for names, keep in ((["delta_inplace", "ewma"], False), (["delta", "ewma"], True)):
        print(names, "keep_clone" if keep else "alias", forecaster(names, keep))


if __name__ == "__main__":
    main()
