"""A minimal Trainer class in the style of many research repos."""
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model, lr=1e-3, max_epochs=2, log_every=2):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.max_epochs = max_epochs
        self.log_every = log_every
        self.loss_history = []
        self.total_loss = 0.0
        self.global_step = 0

    def _step(self, batch):
        x, y = batch
        self.optimizer.zero_grad()
        loss = F.binary_cross_entropy_with_logits(self.model(x).squeeze(-1), y)
        loss.backward()
        self.optimizer.step()
        return loss

    def train_epoch(self, loader):
        self.model.train()
        for batch in loader:
            loss = self._step(batch)
            self.loss_history.append(loss)  # expect: TEN501
            self.total_loss += loss  # expect: TEN501
            self.global_step += 1  # ok
            if self.global_step % self.log_every == 0:
                logger.info("step %d loss %.4f", self.global_step, loss.item())

    def fit(self, loader):
        for epoch in range(self.max_epochs):
            self.train_epoch(loader)
        return self.total_loss / max(self.global_step, 1)


def toy_loader(n=6, bs=8):
    return [(torch.randn(bs, 5), torch.randint(0, 2, (bs,)).float()) for _ in range(n)]


if __name__ == "__main__":
    trainer = Trainer(nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1)))
    print(float(trainer.fit(toy_loader())))
