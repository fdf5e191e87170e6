"""Knowledge distillation from a frozen teacher into a narrower student."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net(width, d_in=20, n_cls=5):
    return nn.Sequential(nn.Linear(d_in, width), nn.ReLU(), nn.Linear(width, n_cls))


def distill_epoch(student, teacher, opt, loader, T=3.0, alpha=0.7, log=None, cache=None):
    kd_terms, soft_targets_seen = [], []
    ce_total = 0.0
    for step, (x, y) in enumerate(loader):
        with torch.no_grad():
            t_logits = teacher(x)
        if cache is not None:
            cache[step] = t_logits  # ok
        soft = F.softmax(t_logits / T, dim=-1)
        s_logits = student(x)
        kd = F.kl_div(F.log_softmax(s_logits / T, -1), soft, reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, y)
        loss = alpha * kd + (1 - alpha) * ce
        opt.zero_grad()
        loss.backward()
        opt.step()
        kd_terms.append(kd)  # expect: TEN501
        soft_targets_seen.append(soft)  # ok
        ce_total += ce.item()  # ok
        if log is not None:
            agree = (s_logits.argmax(-1) == t_logits.argmax(-1)).float().mean()
            log["agreement"].append(agree)  # ok
            log["student_conf"].append(F.softmax(s_logits, -1).max(-1).values.mean())  # expect: TEN501
    return torch.stack(kd_terms).mean(), ce_total / (step + 1)


def main():
    torch.manual_seed(0)
    teacher, student = make_net(64), make_net(8)
    teacher.eval()
    opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    loader = [(torch.randn(10, 20), torch.randint(0, 5, (10,))) for _ in range(3)]
    history = defaultdict(list)
    step_log = defaultdict(list)
    teacher_cache = {}
    for epoch in range(3):
        kd_mean, ce_mean = distill_epoch(student, teacher, opt, loader, log=step_log, cache=teacher_cache)
        history["kd"].append(kd_mean)  # expect: TEN501
        history["ce"].append(ce_mean)  # ok
        history["temperature"].append(3.0)  # ok
        print(epoch, f"kd={kd_mean.item():.4f}", f"ce={ce_mean:.4f}")
    return history


if __name__ == "__main__":
    main()
