import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller:
    """Hinton-style knowledge distillation from a frozen teacher."""

    def __init__(self, teacher: nn.Module, student: nn.Module, T=4.0, alpha=0.9, lr=1e-3):
        self.teacher = teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.student = student
        self.T = T
        self.alpha = alpha
        self.opt = torch.optim.AdamW(student.parameters(), lr=lr)
        self.kd_history = []
        self.ce_history = []
        self.agreement = []
        self.last_loss = None

    def _soft_targets(self, x):
        with torch.no_grad():
            return F.softmax(self.teacher(x) / self.T, dim=-1)

    def step(self, x, y):
        self.student.train()
        soft = self._soft_targets(x)
        logits = self.student(x)
        kd = F.kl_div(F.log_softmax(logits / self.T, -1), soft, reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

        self.kd_history.append(kd)  # expect: TEN501
        self.ce_history.append(ce.detach().cpu())  # ok
        self.agreement.append((logits.argmax(-1) == soft.argmax(-1)).float().mean().item())  # ok
        self.last_loss = loss  # either
        return loss.item()

    def fit(self, loader, epochs=3):
        for ep in range(epochs):
            for x, y in loader:
                self.step(x, y)
            n = len(self.ce_history)
            print(ep, sum(float(c) for c in self.ce_history) / n)


if __name__ == "__main__":
    teacher = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 5))
    student = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    data = [(torch.randn(64, 20), torch.randint(0, 5, (64,))) for _ in range(50)]
    Distiller(teacher, student).fit(data)
