"""Loss history containers."""
import torch


class LossHistory:
    def __init__(self):
        self.d, self.g, self.r1 = [], [], []

    def record(self, d_loss, g_loss, r1):
        self.d.append(d_loss)
        self.g.append(g_loss)
        self.r1.append(r1)

    def summary(self):
        return {k: round(float(torch.as_tensor(getattr(self, k)[-1])), 4) for k in ("d", "g", "r1")}


class SafeLossHistory(LossHistory):
    def record(self, d_loss, g_loss, r1):
        super().record(*(float(v) for v in (d_loss, g_loss, r1)))
