"""GIN for molecular property regression, with a hand-written module hooking into the loop."""
import torch
import torch.nn as nn


class GINLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(d, d), nn.BatchNorm1d(d), nn.ReLU(), nn.Linear(d, d))

    def forward(self, x, edge_index):
        agg = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]])
        return self.mlp((1 + self.eps) * x + agg)


class GIN(nn.Module):
    def __init__(self, in_dim, d=128, layers=4):
        super().__init__()
        self.inp = nn.Linear(in_dim, d)
        self.layers = nn.ModuleList(GINLayer(d) for _ in range(layers))
        self.readout = nn.Linear(d * (layers + 1), 1)

    def forward(self, x, edge_index, batch, n_graphs):
        h = self.inp(x)
        reps = [torch.zeros(n_graphs, h.size(1)).index_add_(0, batch, h)]
        for layer in self.layers:
            h = torch.relu(layer(h, edge_index))
            reps.append(torch.zeros(n_graphs, h.size(1)).index_add_(0, batch, h))  # ok
        return self.readout(torch.cat(reps, 1)).squeeze(1)


class RegressionTask:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.total_loss = 0.0
        self.total_mae = 0.0
        self.n_batches = 0
        self.eps_trace = []

    def on_train_batch(self, graph):
        pred = self.model(graph["x"], graph["edge_index"], graph["batch"], graph["n_graphs"])
        loss = nn.functional.mse_loss(pred, graph["y"])
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.total_loss += loss  # expect: TEN501
        self.total_mae += (pred.detach() - graph["y"]).abs().mean()  # ok
        self.n_batches += 1  # ok
        self.eps_trace.append([layer.eps.item() for layer in self.model.layers])  # ok

    def on_epoch_end(self):
        out = float(self.total_loss) / max(self.n_batches, 1), float(self.total_mae) / max(self.n_batches, 1)
        self.total_loss, self.total_mae, self.n_batches = 0.0, 0.0, 0
        return out


def fit(dataset, in_dim, epochs=50):
    task = RegressionTask(GIN(in_dim))
    for epoch in range(epochs):
        task.model.train()
        for graph in dataset:
            task.on_train_batch(graph)
        print(epoch, task.on_epoch_end())
    return task.model
