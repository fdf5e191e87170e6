"""Learning without Forgetting for class-incremental CIFAR-100."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.func import functional_call


def distillation_loss(new_logits, old_logits, T):
    log_p = F.log_softmax(new_logits / T, dim=1)
    q = F.softmax(old_logits / T, dim=1)
    return F.kl_div(log_p, q, reduction="batchmean") * (T * T)


class IncrementalNet(nn.Module):
    def __init__(self, total_classes=100):
        super().__init__()
        backbone = torchvision.models.resnet18(num_classes=10)
        backbone.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        backbone.maxpool = nn.Identity()
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.head = nn.Linear(512, total_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


class LwF:
    def __init__(self, model, lr=0.1, alpha=1.0, temperature=2.0, device="cuda"):
        self.model = model.to(device)
        self.device = device
        self.lr = lr
        self.alpha = alpha
        self.T = temperature
        self.prev_state = None
        self.known_classes = 0
        self.optimizer = None

    def begin_task(self, n_new_classes):
        self.cur_classes = self.known_classes + n_new_classes
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9, weight_decay=5e-4)

    def observe(self, x, y):
        x, y = x.to(self.device), y.to(self.device)
        self.model.train()
        logits = self.model(x)[:, : self.cur_classes]
        loss = F.cross_entropy(logits, y)
        if self.prev_state is not None:
            with torch.no_grad():
                old_logits = functional_call(self.model, self.prev_state, (x,))[:, : self.known_classes]
            loss = loss + self.alpha * distillation_loss(logits[:, : self.known_classes], old_logits, self.T)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def end_task(self):
        self.prev_state = self.model.state_dict()  # expect: TEN402
        self.known_classes = self.cur_classes


@torch.no_grad()
def evaluate(model, loader, n_classes, device):
    model.eval()
    hit = n = 0
    for x, y in loader:
        logits = model(x.to(device))[:, :n_classes]
        hit += (logits.argmax(1).cpu() == y).sum().item()
        n += y.numel()
    return hit / n


def run(task_loaders, test_loaders, classes_per_task=10, epochs=30, device="cuda"):
    learner = LwF(IncrementalNet(), device=device)
    for t, loader in enumerate(task_loaders):
        learner.begin_task(classes_per_task)
        for epoch in range(epochs):
            for x, y in loader:
                learner.observe(x, y)
        learner.end_task()
        torch.save(learner.model.state_dict(), f"lwf_task{t}.pt")  # ok
        accs = [evaluate(learner.model, test_loaders[i], learner.known_classes, device) for i in range(t + 1)]
        print(f"task {t}: " + " ".join(f"{a:.3f}" for a in accs))
    return learner
