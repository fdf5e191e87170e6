import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm(model, x, y, eps):
    x_adv = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x_adv), y)
    grad, = torch.autograd.grad(loss, x_adv)
    return (x_adv + eps * grad.sign()).clamp(0, 1).detach(), loss


def adversarial_train(model, loader, epochs=10, eps=8 / 255):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-4)
    perturb_norms = []
    attack_losses = []
    clean_acc = []
    robust_terms = []
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x_adv, attack_loss = fgsm(model, x, y, eps)
            perturb_norms.append((x_adv - x).abs().amax())  # ok
            attack_losses.append(attack_loss)  # expect: TEN501
            logits_clean = model(x)
            logits_adv = model(x_adv)
            loss_clean = F.cross_entropy(logits_clean, y)
            loss_adv = F.cross_entropy(logits_adv, y)
            loss = 0.5 * (loss_clean + loss_adv)
            opt.zero_grad()
            loss.backward()
            opt.step()
            clean_acc.append((logits_clean.argmax(1) == y).float().mean())  # ok
            robust_terms += [loss_adv]  # expect: TEN501
        print(epoch, torch.stack(clean_acc[-len(loader):]).mean().item())
    return model


def robust_accuracy(model, loader, eps=8 / 255):
    model.eval()
    correct = 0
    total = 0
    for x, y in loader:
        x_adv, _ = fgsm(model, x, y, eps)
        with torch.no_grad():
            correct += (model(x_adv).argmax(1) == y).sum().item()  # ok
        total += y.numel()  # ok
    return correct / total
