import torch

from .losses import distillation_loss


class AverageMeter:
    def __init__(self):
        self.val, self.sum, self.count = 0, 0, 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def distill_step(student, teacher, batch, optimizer):
    x, y = batch
    with torch.no_grad():
        t_logits = teacher(x)
    s_logits = student(x)
    loss, parts = distillation_loss(s_logits, t_logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss, parts, s_logits


def train_one_epoch(student, teacher, loader, optimizer, meters):
    student.train()
    teacher.eval()
    soft_total = 0.0
    student_outputs = []
    for batch in loader:
        loss, parts, s_logits = distill_step(student, teacher, batch, optimizer)
        meters["loss"].update(loss.item(), batch[0].size(0))  # ok
        meters["soft"].update(parts["soft"], batch[0].size(0))  # expect: TEN501
        soft_total += parts["soft"].detach()  # ok
        student_outputs.append(s_logits)  # expect: TEN501
    return soft_total, student_outputs


@torch.no_grad()
def evaluate(student, loader):
    student.eval()
    agree = []
    for x, y in loader:
        agree.append((student(x).argmax(-1) == y).float().mean())  # ok
    return torch.stack(agree).mean()
