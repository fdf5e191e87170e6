"""Robustness probe: perturb the linear weights, evaluate, put the originals back."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3))
X, Y = torch.randn(50, 6), torch.randint(0, 3, (50,))


def accuracy():
    with torch.no_grad():
        return (model(X).argmax(1) == Y).float().mean().item()


clean = accuracy()
originals = [(n, m.weight) for n, m in model.named_modules() if isinstance(m, nn.Linear)]  # expect: TEN402
originals_ok = [(n, m.weight.detach().clone()) for n, m in model.named_modules() if isinstance(m, nn.Linear)]  # ok
by_name = dict(model.named_modules())
for sigma in (0.1, 0.5):
    with torch.no_grad():
        for _, m in model.named_modules():
            if isinstance(m, nn.Linear):
                m.weight.add_(torch.randn_like(m.weight) * sigma)
    noisy = accuracy()
    with torch.no_grad():
        for (name, w), (_, w_ok) in zip(originals, originals_ok):
            naive_noop = torch.equal(w, by_name[name].weight)
            by_name[name].weight.copy_(w_ok)
    print(f"sigma={sigma}: clean {clean:.2f} noisy {noisy:.2f} restored {accuracy():.2f}; naive originals were live: {naive_noop}")
