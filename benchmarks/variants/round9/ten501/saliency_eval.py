"""Evaluate a classifier and compute vanilla-gradient saliency maps in the same pass."""
import torch
import torch.nn.functional as F


@torch.no_grad()
def evaluate_with_saliency(model, loader, device, max_batches=None):
    model.eval()
    preds, saliency, target_logits, labels = [], [], [], []
    for i, (x, y) in enumerate(loader):
        if max_batches is not None and i >= max_batches:
            break
        x, y = x.to(device), y.to(device)
        with torch.enable_grad():
            x.requires_grad_(True)
            out = model(x)
            score = out.gather(1, y[:, None]).squeeze(1)
            grads, = torch.autograd.grad(score.sum(), x)
        saliency.append(grads.abs().amax(dim=1).cpu())  # ok
        preds.append(out.argmax(1))  # ok
        target_logits.append(score)  # expect: TEN501
        labels.append(y)  # ok

    preds = torch.cat(preds)
    labels = torch.cat(labels)
    return {
        "acc": (preds == labels).float().mean().item(),
        "mean_target_logit": torch.cat(target_logits).mean().item(),
        "saliency": torch.cat(saliency),
    }


@torch.no_grad()
def deletion_curve(model, images, saliency, labels, steps=20):
    """Progressively zero out the most salient pixels and track the target probability."""
    model.eval()
    b, _, h, w = images.shape
    order = saliency.view(b, -1).argsort(dim=1, descending=True)
    curve = []
    x = images.clone()
    per_step = (h * w) // steps
    for s in range(steps + 1):
        probs = F.softmax(model(x), dim=-1).gather(1, labels[:, None]).squeeze(1)
        curve.append(probs.mean().item())  # ok
        if s < steps:
            idx = order[:, s * per_step:(s + 1) * per_step]
            mask = torch.ones(b, h * w, device=x.device)
            mask.scatter_(1, idx, 0.0)
            x = x * mask.view(b, 1, h, w)
    return curve


def report(model, loader, device):
    res = evaluate_with_saliency(model, loader, device, max_batches=50)
    print(f"acc {res['acc']:.4f} mean target logit {res['mean_target_logit']:.3f}")
    return res
