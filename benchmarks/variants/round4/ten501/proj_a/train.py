"""Train a GRU sequence regressor and record everything through LossTracker."""
import torch
import torch.nn as nn

from tracker import LossTracker


class GRURegressor(nn.Module):
    def __init__(self, d_in=8, hidden=64):
        super().__init__()
        self.gru = nn.GRU(d_in, hidden, batch_first=True, num_layers=2, dropout=0.1)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.head(out[:, -1]).squeeze(-1)


def synthetic_batch(bs=32, seq=30, d=8):
    x = torch.randn(bs, seq, d)
    y = x[:, :, 0].cumsum(dim=1)[:, -1] * 0.1
    return x, y


def main(steps=2000, log_every=100):
    tracker = LossTracker("gru-regressor")
    model = GRURegressor()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=steps)
    grad_norms = []
    for step in range(steps):
        x, y = synthetic_batch()
        pred = model(x)
        loss = nn.functional.mse_loss(pred, y)
        opt.zero_grad()
        loss.backward()
        gn = nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()

        tracker.log("train/loss", loss, step=step)
        tracker.log("lr", sched.get_last_lr()[0], step=step)
        grad_norms.append(gn)  # ok
        if step % log_every == 0:
            print(f"step {step}: loss {tracker.latest('train/loss'):.4f} "
                  f"(avg100 {tracker.mean('train/loss', last=100):.4f})")
    tracker.dump("/tmp/gru_run.json")
    print(f"max grad norm {torch.stack(grad_norms).max().item():.3f}")


if __name__ == "__main__":
    main()
