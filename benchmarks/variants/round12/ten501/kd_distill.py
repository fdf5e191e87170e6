"""Knowledge distillation with a cached frozen teacher."""
import torch
import torch.nn.functional as F


class Distiller:
    def __init__(self, student, teacher, T=4.0, alpha=0.9):
        self.student = student
        self.teacher = teacher.eval()
        self.T = T
        self.alpha = alpha
        self.teacher_cache = {}
        self.student_cache = {}
        self.kd_terms = []
        self.ce_terms = []

    def teacher_logits(self, key, x):
        if key not in self.teacher_cache:
            with torch.no_grad():
                self.teacher_cache[key] = self.teacher(x)  # ok
        return self.teacher_cache[key]

    def step(self, batch_idx, x, y, optimizer):
        T = self.T
        s_logits = self.student(x)
        t_logits = self.teacher_logits(int(batch_idx), x)
        kd = F.kl_div(F.log_softmax(s_logits / T, dim=-1), F.softmax(t_logits / T, dim=-1),
                      reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        self.student_cache[int(batch_idx)] = s_logits  # expect: TEN501
        self.kd_terms.append(kd.item())  # ok
        self.ce_terms.append(ce)  # expect: TEN501
        return loss.item()

    def agreement(self):
        keys = sorted(self.student_cache)
        s = torch.cat([self.student_cache[k] for k in keys]).argmax(-1)
        t = torch.cat([self.teacher_cache[k] for k in keys]).argmax(-1)
        return (s == t).float().mean().item()


def distill(student, teacher, loader, epochs=10, lr=1e-3):
    optimizer = torch.optim.SGD(student.parameters(), lr=lr, momentum=0.9)
    d = Distiller(student, teacher)
    curve = []
    for epoch in range(epochs):
        epoch_loss = 0.0
        for i, (x, y) in enumerate(loader):
            epoch_loss += d.step(i, x, y, optimizer)  # ok
        curve.append(epoch_loss / len(loader))  # ok
        print(f"epoch {epoch}: loss {curve[-1]:.4f} agreement {d.agreement():.3f}")
    return curve
