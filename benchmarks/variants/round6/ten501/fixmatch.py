"""FixMatch-style semi-supervised training loop (kekmodel/FixMatch-pytorch layout)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import LambdaLR


class AverageMeter:
    """Computes and stores the average and current value."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def get_cosine_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps, num_cycles=7.0 / 16.0):
    def _lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        progress = float(current_step - num_warmup_steps) / float(max(1, num_training_steps - num_warmup_steps))
        return max(0.0, math.cos(math.pi * num_cycles * progress))
    return LambdaLR(optimizer, _lr_lambda)


def weak_aug(x):
    return torch.flip(x, dims=[-1]) if torch.rand(()) < 0.5 else x


def strong_aug(x):
    noise = 0.3 * torch.randn_like(x)
    cut = torch.ones_like(x)
    cut[..., :4, :4] = 0
    return (x + noise) * cut


class WideBasic(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1),
                                  nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def interleave(x, size):
    s = list(x.shape)
    return x.reshape([-1, size] + s[1:]).transpose(0, 1).reshape([-1] + s[1:])


def de_interleave(x, size):
    s = list(x.shape)
    return x.reshape([size, -1] + s[1:]).transpose(0, 1).reshape([-1] + s[1:])


def train(labeled, unlabeled, model, optimizer, scheduler, eval_step=6, epochs=2, mu=2,
          threshold=0.95, lambda_u=1.0, T=1.0):
    batch_time = AverageMeter()
    losses = AverageMeter()
    losses_x = AverageMeter()
    losses_u = AverageMeter()
    mask_probs = AverageMeter()
    labeled_iter = iter(labeled)
    unlabeled_iter = iter(unlabeled)
    model.train()
    for epoch in range(epochs):
        for batch_idx in range(eval_step):
            try:
                inputs_x, targets_x = next(labeled_iter)
            except StopIteration:
                labeled_iter = iter(labeled)
                inputs_x, targets_x = next(labeled_iter)
            try:
                inputs_u = next(unlabeled_iter)
            except StopIteration:
                unlabeled_iter = iter(unlabeled)
                inputs_u = next(unlabeled_iter)
            inputs_u_w, inputs_u_s = weak_aug(inputs_u), strong_aug(inputs_u)

            batch_size = inputs_x.shape[0]
            inputs = interleave(torch.cat((inputs_x, inputs_u_w, inputs_u_s)), 2 * mu + 1)
            logits = de_interleave(model(inputs), 2 * mu + 1)
            logits_x = logits[:batch_size]
            logits_u_w, logits_u_s = logits[batch_size:].chunk(2)
            del logits

            Lx = F.cross_entropy(logits_x, targets_x, reduction="mean")
            pseudo_label = torch.softmax(logits_u_w.detach() / T, dim=-1)
            max_probs, targets_u = torch.max(pseudo_label, dim=-1)
            mask = max_probs.ge(threshold).float()
            Lu = (F.cross_entropy(logits_u_s, targets_u, reduction="none") * mask).mean()
            loss = Lx + lambda_u * Lu

            loss.backward()
            optimizer.step()
            scheduler.step()
            model.zero_grad()

            losses.update(loss.item())
            losses_x.update(Lx.item())  # ok
            losses_u.update(Lu)  # expect: TEN501
            mask_probs.update(mask.mean())  # ok
            batch_time.update(0.01)
        print(f"Train Epoch: {epoch + 1}/{epochs}. Loss: {losses.avg:.4f}. Loss_x: {losses_x.avg:.4f}. "
              f"Loss_u: {float(losses_u.avg):.4f}. Mask: {float(mask_probs.avg):.2f}.")


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    mu = 2
    labeled = [(torch.randn(4, 3, 8, 8, generator=g), torch.randint(0, 4, (4,), generator=g)) for _ in range(3)]
    unlabeled = [torch.randn(4 * mu, 3, 8, 8, generator=g) for _ in range(4)]
    model = WideBasic()
    no_decay = ["bias", "bn"]
    grouped_parameters = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
         "weight_decay": 5e-4},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
         "weight_decay": 0.0},
    ]
    optimizer = torch.optim.SGD(grouped_parameters, lr=0.03, momentum=0.9, nesterov=True)
    scheduler = get_cosine_schedule_with_warmup(optimizer, 2, 12)
    train(labeled, unlabeled, model, optimizer, scheduler, mu=mu, threshold=0.3)


if __name__ == "__main__":
    main()
