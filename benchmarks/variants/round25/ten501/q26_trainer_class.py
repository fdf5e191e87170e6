import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.scheduler = StepLR(self.optimizer, step_size=4, gamma=0.5)
        self.loss_history = []
        self.lr_history = []
        self.grad_norms = []
        self.epoch_loss = 0.0
        self.running_loss = 0.0

    def training_step(self, batch):
        x, y = batch
        return F.binary_cross_entropy_with_logits(self.model(x).squeeze(-1), y)

    def train_epoch(self, loader):
        self.model.train()
        self.epoch_loss = 0.0
        for batch in loader:
            loss = self.training_step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            total_norm = nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=2.0)
            self.optimizer.step()
            self.loss_history.append(loss)  # expect: TEN501
            self.grad_norms.append(total_norm)  # ok
            self.epoch_loss += loss.item()  # ok
            self.running_loss += loss  # expect: TEN501
        self.scheduler.step()
        self.lr_history.append(self.scheduler.get_last_lr()[0])  # ok
        return self.epoch_loss / len(loader)


def main():
    x = torch.randn(64, 6)
    y = (x[:, 0] * x[:, 1] > 0).float()
    loader = [(x[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    trainer = Trainer(nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1)))
    for epoch in range(4):
        print(epoch, round(trainer.train_epoch(loader), 4), trainer.lr_history[-1])
    print("grad norm mean", round(torch.stack(trainer.grad_norms).mean().item(), 4), len(trainer.loss_history))


if __name__ == "__main__":
    main()
