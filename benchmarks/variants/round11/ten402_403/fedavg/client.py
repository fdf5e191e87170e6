"""A FedProx client: local SGD with a proximal term towards the received global model."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Client:
    def __init__(self, cid, data, mu=0.01, local_epochs=2, lr=0.05):
        self.cid = cid
        self.data = data
        self.mu = mu
        self.local_epochs = local_epochs
        self.lr = lr

    def local_update(self, model: nn.Module, global_state):
        model.load_state_dict(global_state)
        global_params = [p for p in model.parameters()]  # expect: TEN402
        start = {k: v.clone() for k, v in model.state_dict().items()}  # ok
        opt = torch.optim.SGD(model.parameters(), lr=self.lr)
        model.train()
        for _ in range(self.local_epochs):
            for x, y in self.data:
                loss = F.cross_entropy(model(x), y)
                prox = sum((p - g).pow(2).sum() for p, g in zip(model.parameters(), global_params))
                loss = loss + self.mu / 2 * prox
                opt.zero_grad()
                loss.backward()
                opt.step()
        end = model.state_dict()  # ok
        delta = {k: end[k] - start[k] for k in start}
        return delta, sum(x.shape[0] for x, _ in self.data)
