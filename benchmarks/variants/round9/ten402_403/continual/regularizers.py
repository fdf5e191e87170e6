import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class EWC:
    """Elastic weight consolidation (Kirkpatrick et al., 2017) with a diagonal empirical Fisher.

    Build one of these right after finishing a task; call it on the model while
    training the following tasks to get the quadratic penalty.
    """

    def __init__(self, model, loader, device, num_batches=None):
        self.model = model
        self.device = device
        self.params = {n: p for n, p in model.named_parameters() if p.requires_grad}  # ok
        self._means = {n: p.data for n, p in self.params.items()}  # expect: TEN402
        self._fisher = self._diag_fisher(loader, num_batches)

    def _diag_fisher(self, loader, num_batches):
        fisher = {n: torch.zeros_like(p) for n, p in self.params.items()}
        was_training = self.model.training
        self.model.eval()
        seen = 0
        for i, (x, _) in enumerate(loader):
            if num_batches is not None and i >= num_batches:
                break
            x = x.to(self.device)
            self.model.zero_grad()
            logits = self.model(x)
            labels = logits.argmax(dim=1)
            F.nll_loss(F.log_softmax(logits, dim=1), labels).backward()
            for n, p in self.params.items():
                if p.grad is not None:
                    fisher[n] += p.grad.detach() ** 2
            seen += 1
        self.model.zero_grad()
        self.model.train(was_training)
        return {n: f / max(seen, 1) for n, f in fisher.items()}

    def penalty(self, model):
        loss = 0.0
        for n, p in model.named_parameters():
            if n in self._fisher:
                loss = loss + (self._fisher[n] * (p - self._means[n]) ** 2).sum()
        return loss

    __call__ = penalty


class L2SP(nn.Module):
    """L2-SP (Li et al., 2018): pull the shared weights towards the pretrained starting point,
    plain weight decay on the freshly initialised head."""

    def __init__(self, model, alpha=1e-2, beta=1e-4, head_prefix="fc."):
        super().__init__()
        self.alpha = alpha
        self.beta = beta
        self.head_prefix = head_prefix
        self.w0 = {n: p.detach() for n, p in model.named_parameters() if not n.startswith(head_prefix)}  # expect: TEN402

    def forward(self, model):
        sp, l2 = 0.0, 0.0
        for n, p in model.named_parameters():
            if n in self.w0:
                sp = sp + (p - self.w0[n]).pow(2).sum()
            elif p.requires_grad:
                l2 = l2 + p.pow(2).sum()
        return 0.5 * self.alpha * sp + 0.5 * self.beta * l2


class LwFDistiller:
    """Learning without Forgetting (Li & Hoiem, 2016): distil the old model's outputs on new data."""

    def __init__(self, model, temperature=2.0, lam=1.0):
        self.teacher = copy.deepcopy(model).eval()  # ok
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.teacher_state = self.teacher.state_dict()  # ok
        self.T = temperature
        self.lam = lam

    def __call__(self, student_logits, x, old_classes):
        with torch.no_grad():
            teacher_logits = self.teacher(x)[:, old_classes]
        s = F.log_softmax(student_logits[:, old_classes] / self.T, dim=1)
        t = F.softmax(teacher_logits / self.T, dim=1)
        return self.lam * F.kl_div(s, t, reduction="batchmean") * self.T ** 2

    def export_teacher(self, path):
        torch.save(self.teacher_state, path)
