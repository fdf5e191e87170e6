"""Base trainer with overridable hooks; SimCLR subclass records embedding diagnostics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BaseTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(self.parameters(), lr=lr)

    def parameters(self):
        return list(self.model.parameters())

    def compute_loss(self, batch):
        raise NotImplementedError

    def on_step_end(self, step, loss, extras):
        pass

    def fit(self, batches):
        for step, batch in enumerate(batches):
            loss, extras = self.compute_loss(batch)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.on_step_end(step, loss, extras)


class SimCLRTrainer(BaseTrainer):
    def __init__(self, model):
        self.log_tau = nn.Parameter(torch.tensor(-1.0))
        super().__init__(model)
        self.embeddings = []
        self.alignment = []
        self.tau_trace = []
        self.tau_trace_f = []

    def parameters(self):
        return super().parameters() + [self.log_tau]

    def compute_loss(self, batch):
        z1 = F.normalize(self.model(batch + 0.1 * torch.randn_like(batch)), dim=1)
        z2 = F.normalize(self.model(batch + 0.1 * torch.randn_like(batch)), dim=1)
        z = torch.cat([z1, z2])
        sim = z @ z.t() / self.log_tau.exp()
        sim.fill_diagonal_(-1e9)
        n = len(batch)
        target = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
        return F.cross_entropy(sim, target), {"z1": z1, "z2": z2}

    def on_step_end(self, step, loss, extras):
        self.embeddings.append(extras["z1"])  # expect: TEN501
        self.alignment.append((extras["z1"] - extras["z2"]).pow(2).sum(1).mean().item())  # ok
        self.tau_trace.append(self.log_tau.exp())  # expect: TEN501
        with torch.no_grad():
            self.tau_trace_f.append(self.log_tau.exp())  # ok


class QuietTrainer(SimCLRTrainer):
    def on_step_end(self, step, loss, extras):
        self.embeddings.append(extras["z1"].detach())  # ok


batches = [torch.randn(12, 10) for _ in range(6)]
for cls in (SimCLRTrainer, QuietTrainer):
    torch.manual_seed(0)
    tr = cls(nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 4)))
    tr.fit(batches)
    print(cls.__name__, len(tr.embeddings), [round(a, 4) for a in tr.alignment[-2:]], [round(float(t), 4) for t in tr.tau_trace_f[-2:]])
