import torch
import torch.nn as nn
import torch.nn.functional as F


def normalize_adj(edge_index, n):
    adj = torch.zeros(n, n)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = adj + torch.eye(n)
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GCN(nn.Module):
    def __init__(self, in_dim, hid, n_cls, dropout=0.5):
        super().__init__()
        self.l1 = nn.Linear(in_dim, hid)
        self.l2 = nn.Linear(hid, n_cls)
        self.dropout = dropout

    def forward(self, x, a_hat):
        h = F.relu(a_hat @ self.l1(x))
        h = F.dropout(h, self.dropout, self.training)
        return a_hat @ self.l2(h)


def train_step(model, opt, x, a_hat, y, mask):
    model.train()
    opt.zero_grad()
    out = model(x, a_hat)
    loss = F.cross_entropy(out[mask], y[mask])
    loss.backward()
    opt.step()
    return loss


def train_step_detached(model, opt, x, a_hat, y, mask):
    model.train()
    opt.zero_grad()
    loss = F.cross_entropy(model(x, a_hat)[mask], y[mask])
    loss.backward()
    opt.step()
    return loss.detach()


@torch.no_grad()
def accuracy(model, x, a_hat, y, mask):
    model.eval()
    pred = model(x, a_hat).argmax(1)
    return (pred[mask] == y[mask]).float().mean()


def fit(x, edge_index, y, train_mask, val_mask, epochs=200):
    a_hat = normalize_adj(edge_index, x.size(0))
    model = GCN(x.size(1), 64, int(y.max()) + 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    cumulative = 0.0
    val_curve = []
    for epoch in range(epochs):
        cumulative += train_step(model, opt, x, a_hat, y, train_mask)  # expect: TEN501
        val_curve.append(accuracy(model, x, a_hat, y, val_mask))  # ok
    print("mean train loss", float(cumulative) / epochs)
    return model, val_curve


def fit_clean(x, edge_index, y, train_mask, epochs=200):
    a_hat = normalize_adj(edge_index, x.size(0))
    model = GCN(x.size(1), 64, int(y.max()) + 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    losses = []
    for _ in range(epochs):
        losses.append(train_step_detached(model, opt, x, a_hat, y, train_mask))  # ok
    return model, torch.stack(losses)
