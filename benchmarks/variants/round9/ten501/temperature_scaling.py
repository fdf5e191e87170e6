"""Post-hoc temperature scaling and calibration report for a trained classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def collect_outputs(model, loader, device):
    model.eval()
    outs = []
    targets = []
    for x, y in loader:
        outs.append(model(x.to(device)))  # ok
        targets.append(y)  # ok
    return torch.cat(outs), torch.cat(targets).to(device)


def expected_calibration_error(probs, labels, n_bins=15):
    conf, pred = probs.max(1)
    acc = pred.eq(labels).float()
    edges = torch.linspace(0, 1, n_bins + 1, device=probs.device)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        in_bin = (conf > lo) & (conf <= hi)
        frac = in_bin.float().mean()
        if frac > 0:
            ece += (conf[in_bin].mean() - acc[in_bin].mean()).abs().item() * frac.item()  # ok
    return ece


def fit_temperature(model, val_loader, device, max_iter=100):
    with torch.no_grad():
        logits, labels = collect_outputs(model, val_loader, device)
    log_t = nn.Parameter(torch.zeros(1, device=device))
    opt = torch.optim.LBFGS([log_t], lr=0.05, max_iter=max_iter, line_search_fn="strong_wolfe")
    nll_hist = []

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()
        nll_hist.append(loss.item())  # ok
        return loss

    opt.step(closure)
    return log_t.exp().item(), nll_hist


@torch.inference_mode()
def calibration_report(model, loader, device, temperature=1.0):
    logits, labels = collect_outputs(model, loader, device)
    probs_raw = logits.softmax(-1)
    probs_cal = (logits / temperature).softmax(-1)
    return {
        "acc": (probs_raw.argmax(1) == labels).float().mean().item(),
        "nll_raw": F.cross_entropy(logits, labels).item(),
        "nll_cal": F.cross_entropy(logits / temperature, labels).item(),
        "ece_raw": expected_calibration_error(probs_raw, labels),
        "ece_cal": expected_calibration_error(probs_cal, labels),
    }


def main(model, val_loader, test_loader, device="cuda"):
    model.to(device)
    t, hist = fit_temperature(model, val_loader, device)
    print(f"fitted temperature {t:.3f} after {len(hist)} closure calls (nll {hist[0]:.4f} -> {hist[-1]:.4f})")
    for name, temp in (("uncalibrated", 1.0), ("calibrated", t)):
        rep = calibration_report(model, test_loader, device, temp)
        print(name, {k: round(v, 4) for k, v in rep.items()})
