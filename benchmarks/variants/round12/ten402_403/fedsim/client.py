"""Simulated federated clients; each owns a private model replica."""
import torch
import torch.nn.functional as F


class Client:
    def __init__(self, cid, model, loader, local_epochs=1, lr=0.01):
        self.cid = cid
        self.model = model
        self.loader = loader
        self.local_epochs = local_epochs
        self.lr = lr

    def _train(self, extra_loss=None):
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        self.model.train()
        for _ in range(self.local_epochs):
            for x, y in self.loader:
                loss = F.cross_entropy(self.model(x), y)
                if extra_loss is not None:
                    loss = loss + extra_loss()
                opt.zero_grad()
                loss.backward()
                opt.step()

    def local_update(self, global_state):
        """Return (model delta, number of samples)."""
        self.model.load_state_dict(global_state)
        start = self.model.state_dict()  # expect: TEN402
        self._train()
        end = self.model.state_dict()
        delta = {k: end[k] - start[k] for k in end}
        return delta, len(self.loader.dataset)


class ProximalClient(Client):
    """FedProx: penalise distance to the global weights received this round."""

    def __init__(self, *args, mu=0.01, **kwargs):
        super().__init__(*args, **kwargs)
        self.mu = mu

    def local_update(self, global_state):
        self.model.load_state_dict(global_state)
        anchor = [p.detach().clone() for p in self.model.parameters()]  # ok
        start = {k: v.clone() for k, v in self.model.state_dict().items()}  # ok

        def prox():
            return 0.5 * self.mu * sum(
                (p - a).pow(2).sum() for p, a in zip(self.model.parameters(), anchor)
            )

        self._train(extra_loss=prox)
        end = self.model.state_dict()
        delta = {k: end[k] - start[k] for k in end}
        return delta, len(self.loader.dataset)
