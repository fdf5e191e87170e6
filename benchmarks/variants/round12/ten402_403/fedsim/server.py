"""Server side of the simulation: FedAvg with server momentum (FedAvgM)."""
import torch


class FedAvgMServer:
    def __init__(self, global_model, clients, server_lr=1.0, beta=0.9):
        self.global_model = global_model
        self.clients = clients
        self.server_lr = server_lr
        self.beta = beta
        self.velocity = None

    def _aggregate(self, results):
        total = sum(n for _, n in results)
        keys = results[0][0].keys()
        return {k: sum(d[k].float() * (n / total) for d, n in results) for k in keys}

    def round(self, sample):
        global_state = self.global_model.state_dict()  # ok
        results = [c.local_update(global_state) for c in sample]
        avg_delta = self._aggregate(results)

        prev = self.global_model.state_dict()  # expect: TEN402
        new_state = {k: prev[k].float() + avg_delta[k] for k in prev}
        self.global_model.load_state_dict(new_state)

        applied = {k: self.global_model.state_dict()[k].float() - prev[k].float() for k in prev}
        if self.velocity is None:
            self.velocity = applied
        else:
            self.velocity = {k: self.beta * self.velocity[k] + applied[k] for k in applied}
        with torch.no_grad():
            for name, p in self.global_model.named_parameters():
                p.add_(self.velocity[name], alpha=self.server_lr - 1.0)
        return self.velocity

    def run(self, rounds, per_round=10, seed=0):
        g = torch.Generator().manual_seed(seed)
        for r in range(rounds):
            idx = torch.randperm(len(self.clients), generator=g)[:per_round].tolist()
            v = self.round([self.clients[i] for i in idx])
            norm = sum(t.norm() ** 2 for t in v.values()) ** 0.5
            print(f"round {r}: server velocity norm {norm:.4f}")
