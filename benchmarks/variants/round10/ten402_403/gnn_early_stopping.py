"""Full-batch node classification (GCN on Planetoid splits) with patience-based stopping."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, num_nodes):
    loops = torch.arange(num_nodes, device=edge_index.device)
    ei = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
    deg = torch.zeros(num_nodes, device=ei.device).scatter_add_(0, ei[0], torch.ones(ei.shape[1], device=ei.device))
    w = deg[ei[0]].rsqrt() * deg[ei[1]].rsqrt()
    return torch.sparse_coo_tensor(ei, w, (num_nodes, num_nodes)).coalesce()


class GCN(nn.Module):
    def __init__(self, in_dim, hid, n_cls, dropout=0.5):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hid)
        self.lin2 = nn.Linear(hid, n_cls)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.dropout(x, self.dropout, self.training)
        x = F.relu(torch.sparse.mm(adj, self.lin1(x)))
        x = F.dropout(x, self.dropout, self.training)
        return torch.sparse.mm(adj, self.lin2(x))


class EarlyStopping:
    def __init__(self, patience=100, mode="max", min_delta=0.0):
        self.patience = patience
        self.sign = 1.0 if mode == "max" else -1.0
        self.min_delta = min_delta
        self.best = None
        self.counter = 0
        self._checkpoint = None

    def step(self, metric, model):
        score = self.sign * metric
        if self.best is None or score > self.best + self.min_delta:
            self.best = score
            self.counter = 0
            self._checkpoint = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
        else:
            self.counter += 1
        return self.counter >= self.patience

    def restore(self, model):
        if self._checkpoint is not None:
            model.load_state_dict(self._checkpoint)


def accuracy(logits, y, mask):
    return (logits[mask].argmax(-1) == y[mask]).float().mean().item()


def run(data, hidden=64, lr=0.01, weight_decay=5e-4, epochs=1000, patience=100, device="cuda"):
    x, y = data.x.to(device), data.y.to(device)
    adj = normalized_adjacency(data.edge_index.to(device), x.shape[0])
    model = GCN(x.shape[1], hidden, int(y.max()) + 1).to(device)

    decay_params = [p for n, p in model.named_parameters() if n.startswith("lin1")]  # ok
    other_params = [p for n, p in model.named_parameters() if not n.startswith("lin1")]
    optimizer = torch.optim.Adam(
        [{"params": decay_params, "weight_decay": weight_decay}, {"params": other_params, "weight_decay": 0.0}],
        lr=lr,
    )
    stopper = EarlyStopping(patience=patience)

    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        out = model(x, adj)
        loss = F.cross_entropy(out[data.train_mask], y[data.train_mask])
        loss.backward()
        optimizer.step()

        model.eval()
        with torch.no_grad():
            out = model(x, adj)
            val_acc = accuracy(out, y, data.val_mask)
        if stopper.step(val_acc, model):
            print(f"stopped at epoch {epoch}")
            break

    stopper.restore(model)
    model.eval()
    with torch.no_grad():
        test_acc = accuracy(model(x, adj), y, data.test_mask)
    print(f"test accuracy: {test_acc:.4f}")
    return test_acc


if __name__ == "__main__":
    from torch_geometric.datasets import Planetoid

    parser = argparse.ArgumentParser()
    parser.add_argument("--dataset", default="Cora")
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args()
    ds = Planetoid("data", args.dataset)
    run(ds[0], hidden=args.hidden)
