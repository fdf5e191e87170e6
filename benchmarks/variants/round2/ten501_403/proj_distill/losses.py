import torch.nn.functional as F


def distillation_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.7):
    soft = F.kl_div(
        F.log_softmax(student_logits / T, dim=-1),
        F.softmax(teacher_logits / T, dim=-1),
        reduction="batchmean",
    ) * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    loss = alpha * soft + (1 - alpha) * hard
    return loss, {"soft": soft, "hard": hard}
