"""GCN encoder + MLP link predictor on ogbl-collab (Hits@50)."""
import argparse

import torch
import torch.nn.functional as F
from ogb.linkproppred import Evaluator, PygLinkPropPredDataset
from torch.utils.data import DataLoader
from torch_geometric.nn import GCNConv
from torch_geometric.utils import negative_sampling


class GCN(torch.nn.Module):
    def __init__(self, in_channels, hidden, num_layers=3, dropout=0.0):
        super().__init__()
        self.convs = torch.nn.ModuleList([GCNConv(in_channels if i == 0 else hidden, hidden, cached=True)
                                          for i in range(num_layers)])
        self.dropout = dropout

    def forward(self, x, edge_index):
        for conv in self.convs[:-1]:
            x = F.dropout(F.relu(conv(x, edge_index)), p=self.dropout, training=self.training)
        return self.convs[-1](x, edge_index)


class LinkPredictor(torch.nn.Module):
    def __init__(self, hidden, num_layers=3):
        super().__init__()
        self.lins = torch.nn.ModuleList([torch.nn.Linear(hidden, hidden) for _ in range(num_layers - 1)]
                                        + [torch.nn.Linear(hidden, 1)])

    def forward(self, x_i, x_j):
        x = x_i * x_j
        for lin in self.lins[:-1]:
            x = F.relu(lin(x))
        return torch.sigmoid(self.lins[-1](x))


class RunningAverage:
    def __init__(self):
        self.total = 0.0
        self.steps = 0

    def update(self, val):
        self.total += val
        self.steps += 1

    def __call__(self):
        return float(self.total) / max(self.steps, 1)


def train(model, predictor, data, split_edge, optimizer, batch_size):
    model.train()
    predictor.train()
    pos_train_edge = split_edge["train"]["edge"].to(data.x.device)
    loss_avg = RunningAverage()
    for perm in DataLoader(range(pos_train_edge.size(0)), batch_size, shuffle=True):
        optimizer.zero_grad()
        h = model(data.x, data.edge_index)
        edge = pos_train_edge[perm].t()
        pos_out = predictor(h[edge[0]], h[edge[1]])
        pos_loss = -torch.log(pos_out + 1e-15).mean()
        neg = negative_sampling(data.edge_index, num_nodes=data.x.size(0), num_neg_samples=perm.size(0))
        neg_out = predictor(h[neg[0]], h[neg[1]])
        neg_loss = -torch.log(1 - neg_out + 1e-15).mean()
        loss = pos_loss + neg_loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        torch.nn.utils.clip_grad_norm_(predictor.parameters(), 1.0)
        optimizer.step()
        loss_avg.update(loss)  # expect: TEN501
    return loss_avg()


@torch.no_grad()
def test(model, predictor, data, split_edge, evaluator, batch_size):
    model.eval()
    predictor.eval()
    h = model(data.x, data.edge_index)

    def score(edges):
        preds = []
        for perm in DataLoader(range(edges.size(0)), batch_size):
            e = edges[perm].t()
            preds += [predictor(h[e[0]], h[e[1]]).squeeze().cpu()]  # ok
        return torch.cat(preds, dim=0)

    results = {}
    for split in ("valid", "test"):
        pos = score(split_edge[split]["edge"].to(h.device))
        neg = score(split_edge[split]["edge_neg"].to(h.device))
        results[split] = evaluator.eval({"y_pred_pos": pos, "y_pred_neg": neg})["hits@50"]
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=400)
    ap.add_argument("--batch_size", type=int, default=64 * 1024)
    ap.add_argument("--eval_steps", type=int, default=1)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dataset = PygLinkPropPredDataset(name="ogbl-collab")
    data = dataset[0].to(device)
    split_edge = dataset.get_edge_split()
    model = GCN(data.num_features, args.hidden).to(device)
    predictor = LinkPredictor(args.hidden).to(device)
    evaluator = Evaluator(name="ogbl-collab")
    optimizer = torch.optim.Adam(list(model.parameters()) + list(predictor.parameters()), lr=1e-3)

    hits_hist = []
    for epoch in range(1, args.epochs + 1):
        loss = train(model, predictor, data, split_edge, optimizer, args.batch_size)
        if epoch % args.eval_steps == 0:
            res = test(model, predictor, data, split_edge, evaluator, args.batch_size)
            hits_hist.append(res["valid"])
            print(f"Epoch {epoch:03d} loss {loss:.4f} valid {100 * res['valid']:.2f} test {100 * res['test']:.2f}")
    print("best valid", max(hits_hist))


if __name__ == "__main__":
    main()
