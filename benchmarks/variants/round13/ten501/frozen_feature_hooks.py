"""Linear probing on a frozen backbone, with feature taps and gradient-norm hooks."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTap:
    def __init__(self, net, names):
        self.feats = {}
        self.channel_means = []
        self.handles = [m.register_forward_hook(self._hook(n))
                        for n, m in net.named_modules() if n in names]

    def _hook(self, name):
        def hook(module, inputs, output):
            self.feats[name] = output  # ok
            self.channel_means.append(output.mean(0))  # ok
        return hook


class GradNormTap:
    def __init__(self, module):
        self.norms = []
        module.register_full_backward_hook(self._on_backward)

    def _on_backward(self, module, grad_input, grad_output):
        self.norms.append(grad_output[0].norm())  # ok


def backbone():
    net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 16), nn.ReLU())
    for p in net.parameters():
        p.requires_grad_(False)
    return net.eval()


def main(steps=4):
    torch.manual_seed(0)
    net = backbone()
    tap = FeatureTap(net, {"1", "3"})
    probe = nn.Linear(16 + 24, 3)
    gtap = GradNormTap(probe)
    opt = torch.optim.SGD(probe.parameters(), lr=0.1)
    probe_losses, frozen_stats, logits_seen = [], [], []
    for step in range(steps):
        x, y = torch.randn(8, 12), torch.randint(0, 3, (8,))
        if step % 2 == 0:
            with torch.no_grad():
                net(x)
        else:
            net(x)
        feats = torch.cat([tap.feats["3"], tap.feats["1"]], 1)
        frozen_stats.append(tap.feats["3"].std())  # ok
        logits = probe(feats)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        probe_losses.append(loss.detach())  # ok
        logits_seen.append(logits.argmax(1))  # ok
    print(len(tap.channel_means), len(gtap.norms), torch.stack(probe_losses).mean().item())


if __name__ == "__main__":
    main()
