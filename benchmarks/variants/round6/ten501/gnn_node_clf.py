"""GCN node classification (PyG example style, dense adjacency so it needs
only torch) followed by a mini-batch graph classification run."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalized_adjacency(edge_index, num_nodes):
    adj = torch.zeros(num_nodes, num_nodes)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = adj + adj.t() + torch.eye(num_nodes)
    adj = (adj > 0).float()
    deg_inv_sqrt = adj.sum(1).pow(-0.5)
    return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :]


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, adj):
        return adj @ self.lin(x)


class GCN(nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, hidden_channels)
        self.conv2 = GCNConv(hidden_channels, out_channels)

    def forward(self, x, adj):
        x = F.dropout(x, p=0.5, training=self.training)
        x = self.conv1(x, adj).relu()
        x = F.dropout(x, p=0.5, training=self.training)
        return self.conv2(x, adj)


torch.manual_seed(12345)
num_nodes, num_feats, num_classes = 60, 8, 3
y = torch.randint(0, num_classes, (num_nodes,))
x = F.one_hot(y, num_classes).float().repeat(1, 3)[:, :num_feats] + 0.5 * torch.randn(num_nodes, num_feats)
edge_index = torch.randint(0, num_nodes, (2, 180))
adj = normalized_adjacency(edge_index, num_nodes)
perm = torch.randperm(num_nodes)
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
val_mask = torch.zeros(num_nodes, dtype=torch.bool)
test_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[perm[:30]] = True
val_mask[perm[30:45]] = True
test_mask[perm[45:]] = True

model = GCN(num_feats, 16, num_classes)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)


def train():
    model.train()
    optimizer.zero_grad()
    out = model(x, adj)
    loss = F.cross_entropy(out[train_mask], y[train_mask])
    loss.backward()
    optimizer.step()
    return loss


def test():
    model.eval()
    out = model(x, adj)
    pred = out.argmax(dim=-1)
    accs = []
    for mask in [train_mask, val_mask, test_mask]:
        accs.append(int((pred[mask] == y[mask]).sum()) / int(mask.sum()))
    return accs


def graph_classification(epochs=3):
    """Tiny batched graph classification: each graph is a block on the diagonal."""
    g = torch.Generator().manual_seed(0)
    graphs = []
    for _ in range(24):
        n = int(torch.randint(4, 8, (1,), generator=g))
        label = int(torch.randint(0, 2, (1,), generator=g))
        feats = torch.randn(n, num_feats, generator=g) + label
        e = torch.randint(0, n, (2, 2 * n), generator=g)
        graphs.append((feats, normalized_adjacency(e, n), label))

    encoder = GCN(num_feats, 16, 16)
    head = nn.Linear(16, 2)
    opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=0.01)
    for epoch in range(epochs):
        total_loss, correct, seen = 0.0, 0, 0
        for i in range(0, len(graphs), 6):
            chunk = graphs[i:i + 6]
            xs = torch.cat([c[0] for c in chunk])
            a = torch.block_diag(*[c[1] for c in chunk])
            batch = torch.cat([torch.full((c[0].size(0),), j) for j, c in enumerate(chunk)])
            labels = torch.tensor([c[2] for c in chunk])
            h = encoder(xs, a)
            pooled = torch.zeros(len(chunk), h.size(1)).index_add_(0, batch, h) / torch.bincount(batch)[:, None]
            logits = head(pooled)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total_loss += loss.item() * len(chunk)
            correct += (logits.argmax(1) == labels).sum()  # ok
            seen += len(chunk)
        print(f"[graph] epoch {epoch} loss {total_loss / seen:.4f} acc {int(correct) / seen:.3f}")


hist = []
best_val_acc = final_test_acc = 0
for epoch in range(1, 31):
    loss = train()
    train_acc, val_acc, tmp_test_acc = test()
    if val_acc > best_val_acc:
        best_val_acc = val_acc
        final_test_acc = tmp_test_acc
    hist.append(loss)  # expect: TEN501
    if epoch % 10 == 0:
        print(f"Epoch: {epoch:03d}, Loss: {loss.item():.4f}, Train: {train_acc:.4f}, "
              f"Val: {best_val_acc:.4f}, Test: {final_test_acc:.4f}")

graph_classification()
