"""Server strategies that aggregate client *updates* (deltas), not raw weights.

Run from the parent folder:  python -m proj_fedsim.server
"""
import torch

from proj_fedsim.client import Client, build_model


class FedAvgDeltaServer:
    def __init__(self, clients, server_lr=1.0):
        self.clients = clients
        self.server_lr = server_lr
        self.global_model = build_model()

    def global_weights(self):
        return [p.detach().clone() for p in self.global_model.parameters()]

    def round(self):
        gw = self.global_weights()
        total = sum(c.num_examples for c in self.clients)
        agg = [torch.zeros_like(w) for w in gw]
        for c in self.clients:
            c.set_weights(gw)
            start = c.get_weights()  # expect: TEN402
            c.train()
            end = c.get_weights()  # ok
            for a, s, e in zip(agg, start, end):
                a += (c.num_examples / total) * (e - s)
        with torch.no_grad():
            for p, a in zip(self.global_model.parameters(), agg):
                p.add_(a, alpha=self.server_lr)
        return max(float(a.abs().max()) for a in agg)


class FedAdamServer(FedAvgDeltaServer):
    def __init__(self, clients, server_lr=0.01, beta1=0.9, beta2=0.99, tau=1e-3):
        super().__init__(clients, server_lr)
        self.m = [torch.zeros_like(p) for p in self.global_model.parameters()]
        self.v = [torch.zeros_like(p) for p in self.global_model.parameters()]
        self.beta1, self.beta2, self.tau = beta1, beta2, tau

    def round(self):
        gw = self.global_weights()
        total = sum(c.num_examples for c in self.clients)
        agg = [torch.zeros_like(w) for w in gw]
        for c in self.clients:
            c.set_weights(gw)
            start = c.get_weights_copy()  # ok
            c.train()
            for a, s, e in zip(agg, start, c.get_weights()):
                a += (c.num_examples / total) * (e - s)
        with torch.no_grad():
            for p, a, m, v in zip(self.global_model.parameters(), agg, self.m, self.v):
                m.mul_(self.beta1).add_(a, alpha=1 - self.beta1)
                v.mul_(self.beta2).addcmul_(a, a, value=1 - self.beta2)
                p.add_(self.server_lr * m / (v.sqrt() + self.tau))
        return max(float(a.abs().max()) for a in agg)


if __name__ == "__main__":
    torch.manual_seed(0)
    clients = [Client(i, torch.randn(40, 10), torch.randint(0, 3, (40,))) for i in range(4)]
    for cls in (FedAvgDeltaServer, FedAdamServer):
        server = cls(clients)
        print(cls.__name__, [round(server.round(), 4) for _ in range(3)])
