"""AdaBN: re-estimate BatchNorm statistics on target data, compare with source stats."""
import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 16)
        self.bn = nn.BatchNorm1d(16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
xs = torch.randn(256, 5)
ys = (xs[:, 0] + xs[:, 1] > 0).long()
for i in range(0, 256, 32):
    opt.zero_grad()
    nn.functional.cross_entropy(net(xs[i:i + 32]), ys[i:i + 32]).backward()
    opt.step()

# keep the source-domain statistics before adapting to the target domain
source_stats = {n: b for n, b in net.named_buffers()}  # expect: TEN402
source_mean = net.bn.running_mean  # expect: TEN402
source_var = net.bn.running_var.clone()  # ok
source_count = int(net.bn.num_batches_tracked)  # ok

xt = 2.0 * torch.randn(256, 5) + 1.5  # shifted target domain
yt = (xt[:, 0] + xt[:, 1] > 3.0).long()
net.train()
with torch.no_grad():
    for i in range(0, 256, 32):
        net(xt[i:i + 32])  # forward only: updates running stats in place
net.eval()
with torch.no_grad():
    acc_adapted = (net(xt).argmax(1) == yt).float().mean().item()
    print(f"mean shift of BN stats: {(net.bn.running_mean - source_mean).abs().mean().item():.5f}")
    print(f"var shift of BN stats:  {(net.bn.running_var - source_var).abs().mean().item():.5f}")
    print(f"batches tracked {source_count} -> {int(net.bn.num_batches_tracked)}")
    net.load_state_dict(source_stats, strict=False)
    acc_source = (net(xt).argmax(1) == yt).float().mean().item()
print(f"target acc with adapted stats {acc_adapted:.4f}, with source stats {acc_source:.4f}")
print("running_mean[:4] now", [round(v, 4) for v in net.bn.running_mean[:4].tolist()])
