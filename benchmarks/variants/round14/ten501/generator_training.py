"""Training written as a generator that yields (step, loss); the caller does the logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def training_steps(model, opt, x, y, steps, bs=16):
    n = x.size(0)
    for step in range(steps):
        idx = torch.randint(0, n, (bs,))
        loss = F.binary_cross_entropy_with_logits(model(x[idx]).squeeze(-1), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield step, loss


def eval_stream(model, x, y, bs=32):
    with torch.no_grad():
        for i in range(0, x.size(0), bs):
            logits = model(x[i:i + bs]).squeeze(-1)
            yield F.binary_cross_entropy_with_logits(logits, y[i:i + bs])


def main(steps=16):
    torch.manual_seed(0)
    x = torch.randn(128, 10)
    y = (x[:, :3].sum(-1) > 0).float()
    model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    trace, checkpoints = [], []
    smooth, smooth_f = None, 0.0
    for step, loss in training_steps(model, opt, x, y, steps):
        trace.append(loss)  # expect: TEN501
        smooth = loss if smooth is None else 0.9 * smooth + 0.1 * loss  # expect: TEN501
        smooth_f = 0.9 * smooth_f + 0.1 * float(loss)  # ok
        if step % 5 == 0:
            checkpoints.append((step, {k: v.clone() for k, v in model.state_dict().items()}))  # ok
            print(f"step {step}: loss={loss.item():.4f} ema={smooth.item():.4f} ema_f={smooth_f:.4f}")

    stream_vals = []
    for v in eval_stream(model, x, y):
        stream_vals.append(v)  # ok
    print("eval loss", torch.stack(stream_vals).mean().item(), "checkpoints", [s for s, _ in checkpoints])


if __name__ == "__main__":
    main()
