"""Local training on a single simulated client (FedAvg / FedProx)."""
import copy
import logging
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from .metrics import RunningLoss

log = logging.getLogger(__name__)


@dataclass
class ClientUpdate:
    cid: int
    state: dict
    num_samples: int
    loss: float


class Client:
    def __init__(self, cid, model, loader, device="cpu", mu=0.0):
        self.cid = cid
        self.model = model
        self.loader = loader
        self.device = device
        self.mu = mu
        self.tracker = RunningLoss()

    def local_train(self, global_state, epochs=1, lr=0.01):
        self.model.load_state_dict(global_state)
        self.model.to(self.device).train()
        anchor = [p.detach().clone() for p in self.model.parameters()]
        opt = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.0)

        epoch_loss, steps, n_samples = 0.0, 0, 0
        for _ in range(epochs):
            for x, y in self.loader:
                x, y = x.to(self.device), y.to(self.device)
                opt.zero_grad()
                loss = F.cross_entropy(self.model(x), y)
                if self.mu > 0:
                    prox = 0.0
                    for w, w0 in zip(self.model.parameters(), anchor):
                        prox = prox + (w - w0).pow(2).sum()  # ok
                    loss = loss + 0.5 * self.mu * prox
                loss.backward()
                opt.step()

                epoch_loss += loss.item()  # ok
                self.tracker.update(loss)  # expect: TEN501
                steps += 1
                n_samples += x.size(0)

        log.info("client %d: %d steps, lifetime mean loss %.4f", self.cid, steps, self.tracker.mean())
        return ClientUpdate(cid=self.cid, state=copy.deepcopy(self.model.state_dict()),
                            num_samples=n_samples, loss=epoch_loss / max(steps, 1))
