"""A PyG-like Batch container with its own `data` storage."""
import torch


class Data:
    def __init__(self, x, edge_index, y=None):
        self.x = x
        self.edge_index = edge_index
        self.y = y

    @property
    def num_nodes(self):
        return self.x.size(0)


class Batch:
    def __init__(self, graphs):
        self.graphs = graphs
        offset = 0
        xs, eis = [], []
        for g in graphs:
            xs.append(g.x)
            eis.append(g.edge_index + offset)
            offset += g.num_nodes
        self.data = Data(torch.cat(xs), torch.cat(eis, dim=1))  # ok

    def to(self, device):
        self.data.x = self.data.x.to(device)  # ok
        self.data.edge_index = self.data.edge_index.to(device)  # ok
        return self
