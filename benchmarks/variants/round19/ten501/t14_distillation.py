"""Knowledge distillation with a cached teacher and KD statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Distiller:
    def __init__(self, teacher, student, T=2.0, alpha=0.5):
        self.teacher, self.student = teacher.eval(), student
        self.T, self.alpha = T, alpha
        self.opt = torch.optim.Adam(student.parameters(), lr=1e-2)
        self.teacher_cache = {}
        self.student_logits_log = []
        self.kd_running = 0.0
        self.kd_running_f = 0.0
        self.agreement = []

    def teacher_logits(self, idx, x):
        if idx not in self.teacher_cache:
            with torch.no_grad():
                t = self.teacher(x)
            self.teacher_cache[idx] = t  # ok
        return self.teacher_cache[idx]

    def step(self, idx, x, y):
        t_logits = self.teacher_logits(idx, x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits / self.T, -1), reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.student_logits_log.append(s_logits)  # expect: TEN501
        self.kd_running += kd  # expect: TEN501
        self.kd_running_f += float(kd)  # ok
        self.agreement.append((s_logits.argmax(-1) == t_logits.argmax(-1)).float().mean())  # ok
        return loss


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    teacher = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
    student = nn.Linear(6, 3)
    d = Distiller(teacher, student)
    data = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)]
    for epoch in range(2):
        for idx, (x, y) in enumerate(data):
            d.step(idx, x, y)
    print(len(d.teacher_cache), len(d.student_logits_log), float(d.kd_running), d.kd_running_f, float(sum(d.agreement)))


if __name__ == "__main__":
    main()
