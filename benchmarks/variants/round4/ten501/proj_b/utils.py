"""Bookkeeping helpers shared by train/eval scripts."""
import datetime
import time


def accumulate(stats, loss_dict):
    """Add every entry of loss_dict into the running stats dict."""
    for k, v in loss_dict.items():
        stats[k] = stats.get(k, 0.0) + v  # expect: TEN501
    stats["_n"] = stats.get("_n", 0) + 1  # ok
    return stats


def averaged(stats):
    n = max(stats.get("_n", 1), 1)
    return {k: float(v) / n for k, v in stats.items() if not k.startswith("_")}


def format_stats(stats, prefix=""):
    return prefix + "  ".join(f"{k}: {v:.4f}" for k, v in averaged(stats).items())


class Timer:
    def __init__(self):
        self.start = time.time()
        self.last = self.start

    def lap(self):
        now = time.time()
        dt, self.last = now - self.last, now
        return dt

    def eta(self, done, total):
        elapsed = time.time() - self.start
        remaining = elapsed / max(done, 1) * (total - done)
        return str(datetime.timedelta(seconds=int(remaining)))


def save_checkpoint(model, optimizer, epoch, path):
    import torch

    torch.save(
        {"epoch": epoch, "model": model.state_dict(), "optimizer": optimizer.state_dict()},
        path,
    )
