"""Mini-batch GraphSAGE on ogbn-products with neighbour sampling."""
import argparse
import time

import torch
import torch.nn.functional as F
from ogb.nodeproppred import Evaluator, PygNodePropPredDataset
from torch_geometric.loader import NeighborLoader
from torch_geometric.nn import SAGEConv


class SAGE(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, out_channels, num_layers=3, dropout=0.5):
        super().__init__()
        self.convs = torch.nn.ModuleList()
        self.convs.append(SAGEConv(in_channels, hidden_channels))
        for _ in range(num_layers - 2):
            self.convs.append(SAGEConv(hidden_channels, hidden_channels))
        self.convs.append(SAGEConv(hidden_channels, out_channels))
        self.dropout = dropout

    def forward(self, x, edge_index):
        for i, conv in enumerate(self.convs):
            x = conv(x, edge_index)
            if i < len(self.convs) - 1:
                x = F.relu(x)
                x = F.dropout(x, p=self.dropout, training=self.training)
        return x


def train(model, loader, optimizer, device):
    model.train()
    total_loss = total_correct = total_examples = 0
    for batch in loader:
        batch = batch.to(device)
        optimizer.zero_grad()
        out = model(batch.x, batch.edge_index)[: batch.batch_size]
        y = batch.y[: batch.batch_size].view(-1)
        loss = F.cross_entropy(out, y)
        loss.backward()
        optimizer.step()

        total_loss += float(loss) * batch.batch_size  # ok
        total_correct += int((out.argmax(dim=-1) == y).sum())  # ok
        total_examples += batch.batch_size
    return total_loss / total_examples, total_correct / total_examples


def inference(model, loader, device):
    """Full-graph logits for every node seen by ``loader`` (in loader order)."""
    model.eval()
    outs = []
    for batch in loader:
        batch = batch.to(device)
        out = model(batch.x, batch.edge_index)[: batch.batch_size]
        outs.append(out)  # expect: TEN501
    model.train()
    return torch.cat(outs, dim=0)


@torch.no_grad()
def test(model, loader, evaluator, device):
    model.eval()
    ys, preds = [], []
    for batch in loader:
        batch = batch.to(device)
        out = model(batch.x, batch.edge_index)[: batch.batch_size]
        preds.append(out.argmax(dim=-1, keepdim=True).cpu())  # ok
        ys.append(batch.y[: batch.batch_size].cpu())  # ok
    return evaluator.eval({"y_true": torch.cat(ys), "y_pred": torch.cat(preds)})["acc"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--eval_every", type=int, default=5)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = PygNodePropPredDataset("ogbn-products", root="data")
    split_idx = dataset.get_idx_split()
    data = dataset[0]
    evaluator = Evaluator(name="ogbn-products")

    train_loader = NeighborLoader(data, input_nodes=split_idx["train"], num_neighbors=[15, 10, 5],
                                  batch_size=1024, shuffle=True, num_workers=8)
    valid_loader = NeighborLoader(data, input_nodes=split_idx["valid"], num_neighbors=[-1, -1, -1],
                                  batch_size=4096, num_workers=8)
    test_loader = NeighborLoader(data, input_nodes=split_idx["test"], num_neighbors=[-1, -1, -1],
                                 batch_size=4096, num_workers=8)

    model = SAGE(dataset.num_features, args.hidden, dataset.num_classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

    best_val = 0.0
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        loss, acc = train(model, train_loader, optimizer, device)
        print(f"Epoch {epoch:02d} loss {loss:.4f} approx-acc {acc:.4f} ({time.time() - t0:.1f}s)")
        if epoch % args.eval_every == 0:
            logits = inference(model, valid_loader, device)
            y_valid = data.y[split_idx["valid"]].to(device).view(-1)
            val_acc = (logits.argmax(-1) == y_valid).float().mean().item()
            if val_acc > best_val:
                best_val = val_acc
                torch.save(model.state_dict(), "sage_best.pt")
            print(f"  valid acc {val_acc:.4f}  (best {best_val:.4f})")

    model.load_state_dict(torch.load("sage_best.pt"))
    print("test acc", test(model, test_loader, evaluator, device))


if __name__ == "__main__":
    main()
