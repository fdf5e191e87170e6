import argparse
import os.path as osp

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
import torch_geometric.transforms as T
from sklearn.manifold import TSNE
from torch_geometric.datasets import Planetoid
from torch_geometric.nn import GCNConv

parser = argparse.ArgumentParser()
parser.add_argument("--dataset", default="Cora", choices=["Cora", "CiteSeer", "PubMed"])
parser.add_argument("--hidden", type=int, default=16)
parser.add_argument("--lr", type=float, default=0.01)
parser.add_argument("--epochs", type=int, default=200)
parser.add_argument("--plot", action="store_true")
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
path = osp.join("data", "Planetoid")
dataset = Planetoid(path, args.dataset, transform=T.NormalizeFeatures())
data = dataset[0].to(device)


class GCN(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, hidden_channels, cached=True)
        self.conv2 = GCNConv(hidden_channels, out_channels, cached=True)

    def embed(self, x, edge_index):
        x = F.dropout(x, p=0.5, training=self.training)
        return self.conv1(x, edge_index).relu()

    def forward(self, x, edge_index):
        h = self.embed(x, edge_index)
        h = F.dropout(h, p=0.5, training=self.training)
        return self.conv2(h, edge_index)


model = GCN(dataset.num_features, args.hidden, dataset.num_classes).to(device)
optimizer = torch.optim.Adam([
    dict(params=model.conv1.parameters(), weight_decay=5e-4),
    dict(params=model.conv2.parameters(), weight_decay=0),
], lr=args.lr)


def train():
    model.train()
    optimizer.zero_grad()
    out = model(data.x, data.edge_index)
    loss = F.cross_entropy(out[data.train_mask], data.y[data.train_mask])
    loss.backward()
    optimizer.step()
    return loss


@torch.no_grad()
def test():
    model.eval()
    pred = model(data.x, data.edge_index).argmax(dim=-1)
    accs = []
    for mask in (data.train_mask, data.val_mask, data.test_mask):
        accs.append(int((pred[mask] == data.y[mask]).sum()) / int(mask.sum()))  # ok
    return accs


loss_curve, val_curve = [], []
best_val_acc = final_test_acc = 0.0
for epoch in range(1, args.epochs + 1):
    loss = train()
    train_acc, val_acc, tmp_test_acc = test()
    loss_curve.append(loss)  # expect: TEN501
    val_curve.append(val_acc)  # ok
    if val_acc > best_val_acc:
        best_val_acc = val_acc
        final_test_acc = tmp_test_acc
    print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}, Train: {train_acc:.4f}, Val: {val_acc:.4f}, Test: {tmp_test_acc:.4f}")
print(f"Best val {best_val_acc:.4f} -> test {final_test_acc:.4f}")

if args.plot:
    fig, ax = plt.subplots(1, 2, figsize=(10, 4))
    ax[0].plot([l.item() for l in loss_curve])
    ax[0].set_title("train loss")
    ax[1].plot(val_curve)
    ax[1].set_title("val acc")
    fig.savefig("gcn_curves.png")

    model.eval()
    with torch.no_grad():
        emb = model.embed(data.x, data.edge_index).cpu().numpy()
    xy = TSNE(n_components=2, init="pca").fit_transform(emb)
    plt.figure(figsize=(6, 6))
    plt.scatter(xy[:, 0], xy[:, 1], c=data.y.cpu().numpy(), s=4, cmap="tab10")
    plt.savefig("gcn_tsne.png")
