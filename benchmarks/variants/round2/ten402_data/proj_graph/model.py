import torch
import torch.nn as nn

from .batch import Batch, Data


class GCNLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out)
        self.scale = nn.Parameter(torch.ones(d_out))

    def forward(self, x, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        return self.lin(x + agg) * self.scale


class GCN(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.layers = nn.ModuleList([GCNLayer(d_in, d_hidden), GCNLayer(d_hidden, 1)])
        for layer in self.layers:
            layer.scale.data.fill_(0.5)  # expect: TEN102

    def forward(self, batch):
        x = batch.data.x  # ok
        for layer in self.layers:
            x = torch.relu(layer(x, batch.data.edge_index))  # ok
        return x


def train(model, batch, target, steps=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        out = model(batch)
        loss = ((out.squeeze(-1) - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        for layer in model.layers:
            layer.scale.data.clamp_(min=0.0)  # expect: TEN102
    print("node preds", out.data.squeeze(-1)[:3])  # expect: TEN101
    return batch.data.x.shape  # ok


if __name__ == "__main__":
    g = Data(torch.randn(4, 3), torch.tensor([[0, 1, 2], [1, 2, 3]]))
    b = Batch([g, g]).to("cpu")
    print(train(GCN(3, 5), b, torch.zeros(8)))
