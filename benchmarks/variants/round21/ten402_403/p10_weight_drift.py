"""Logging how far fine-tuning moved the weights away from the pretrained point (L2-SP style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector

torch.manual_seed(0)
torch.set_num_threads(1)


class DriftMonitor:
    def __init__(self, model):
        self.model = model
        self.init_views = [p.view(-1) for p in model.parameters()]  # expect: TEN402
        self.init_flat = torch.cat([p.view(-1) for p in model.parameters()]).detach()  # ok
        self.init_vec = parameters_to_vector(model.parameters()).detach()  # ok
        self.head_w0 = model[-1].weight.reshape(-1)  # expect: TEN402
        self.head_np = model[-1].weight.detach().numpy()  # either: TEN402

    def report(self):
        with torch.no_grad():
            now = torch.cat([p.view(-1) for p in self.model.parameters()])
            d_views = (now - torch.cat(self.init_views)).norm().item()
            d_flat = (now - self.init_flat).norm().item()
            d_vec = (now - self.init_vec).norm().item()
            head = self.model[-1].weight.reshape(-1)
            d_head = (head - self.head_w0).norm().item()
            d_np = float(((head.numpy() - self.head_np.reshape(-1)) ** 2).sum() ** 0.5)
        print(f"drift via views={d_views:.5f} via cat={d_flat:.5f} via parameters_to_vector={d_vec:.5f} "
              f"head via reshape={d_head:.5f} head via numpy={d_np:.5f}")


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    mon = DriftMonitor(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    g = torch.Generator().manual_seed(4)
    x, y = torch.randn(128, 8, generator=g), torch.randint(0, 3, (128,), generator=g)
    for _ in range(20):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    mon.report()
