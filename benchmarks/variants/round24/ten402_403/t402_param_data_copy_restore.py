"""SAM-style weight perturbation: perturb, compute the sharpness loss, restore."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def sharpness(model, x, y, rho=0.5, mode="alias"):
    loss = nn.functional.mse_loss(model(x), y)
    grads = torch.autograd.grad(loss, list(model.parameters()))
    norm = torch.sqrt(sum((g ** 2).sum() for g in grads))
    with torch.no_grad():
        if mode == "alias":
            orig = [p.data for p in model.parameters()]  # expect: TEN402
            for p, g in zip(model.parameters(), grads):
                p.data.copy_(p.data + rho * g / norm)
        elif mode == "clone":
            orig = [p.data.clone() for p in model.parameters()]  # ok
            for p, g in zip(model.parameters(), grads):
                p.data.copy_(p.data + rho * g / norm)
        else:
            orig = [p.data for p in model.parameters()]  # ok
            for p, g in zip(model.parameters(), grads):
                p.data = p.data + rho * g / norm
        perturbed = nn.functional.mse_loss(model(x), y).item()
        for p, o in zip(model.parameters(), orig):
            p.data = o
    return loss.item(), perturbed


if __name__ == "__main__":
    x = torch.randn(30, 5)
    y = torch.randn(30, 2)
    for mode in ("alias", "clone", "rebind"):
        torch.manual_seed(1)
        model = nn.Linear(5, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(5):
            clean, sharp = sharpness(model, x, y, mode=mode)
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"{mode}: clean {clean:.6f} perturbed {sharp:.6f} w {model.weight.sum().item():.6f}")
