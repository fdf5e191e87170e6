import copy
import random

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


class Client:
    def __init__(self, cid, model_fn, dataset, device, lr=0.01, local_epochs=1, batch_size=32):
        self.cid = cid
        self.model = model_fn().to(device)
        self.loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, drop_last=False)
        self.device = device
        self.lr = lr
        self.local_epochs = local_epochs

    def local_update(self, global_model):
        self.model.load_state_dict(global_model.state_dict())  # ok
        start = {k: v for k, v in self.model.state_dict().items()}  # expect: TEN402
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        self.model.train()
        for _ in range(self.local_epochs):
            for x, y in self.loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        with torch.no_grad():
            end = self.model.state_dict()  # ok
            delta = {k: (end[k] - start[k]).float() for k in start}
        return delta, len(self.loader.dataset)


class Server:
    def __init__(self, model, clients, server_lr=1.0, seed=0):
        self.model = model
        self.clients = clients
        self.server_lr = server_lr
        self.rng = random.Random(seed)

    def round(self, frac=0.1):
        k = max(1, int(frac * len(self.clients)))
        picked = self.rng.sample(self.clients, k)
        updates = [c.local_update(self.model) for c in picked]
        total = sum(n for _, n in updates)

        new_state = copy.deepcopy(self.model.state_dict())  # ok
        for name, value in new_state.items():
            if not value.dtype.is_floating_point:
                continue
            agg = sum(d[name] * (n / total) for d, n in updates)
            value += self.server_lr * agg.to(value.dtype)
        self.model.load_state_dict(new_state)
        return [c.cid for c in picked]

    @torch.no_grad()
    def evaluate(self, loader, device):
        self.model.eval()
        correct = n = 0
        for x, y in loader:
            correct += (self.model(x.to(device)).argmax(1).cpu() == y).sum().item()
            n += y.numel()
        return correct / n
