"""Feature extraction with forward / backward hooks."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActivationRecorder:
    def __init__(self):
        self.activations = []
        self.means = []

    def __call__(self, module, inputs, output):
        self.activations.append(output)  # expect: TEN501
        self.means.append(output.detach().mean().item())  # ok


class SafeRecorder:
    def __init__(self):
        self.activations = []

    def __call__(self, module, inputs, output):
        self.activations.append(output.detach().cpu())  # ok


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
    rec, safe = ActivationRecorder(), SafeRecorder()
    model[1].register_forward_hook(rec)
    model[3].register_forward_hook(safe)
    features = {}
    grad_log = []
    leaked = []

    def get_activation(name):
        def hook(module, inp, out):
            features[name] = out  # either
            leaked.append(out.sum())  # expect: TEN501
        return hook

    def grad_hook(module, grad_input, grad_output):
        grad_log.append(grad_output[0].norm())  # ok

    model[2].register_forward_hook(get_activation("fc2"))
    model[4].register_full_backward_hook(grad_hook)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(4):
        loss = F.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(len(rec.activations), sum(rec.means), len(safe.activations), features["fc2"].shape, float(sum(grad_log)), float(sum(leaked)))


if __name__ == "__main__":
    main()
