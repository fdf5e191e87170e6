"""Model with auxiliary head; outputs gathered in tuples and concatenated lists."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AuxNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(7, 10)
        self.main = nn.Linear(10, 3)
        self.aux = nn.Linear(10, 3)

    def forward(self, x):
        h = torch.relu(self.body(x))
        return self.main(h), self.aux(h)


torch.manual_seed(0)
net = AuxNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
outputs_seen = ()
shapes = ()
cached = []
probs_ok = []
for it in range(4):
    x, y = torch.randn(4, 7), torch.randint(0, 3, (4,))
    logits, aux = net(x)
    loss = F.cross_entropy(logits, y) + 0.4 * F.cross_entropy(aux, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    outputs_seen += (aux,)  # expect: TEN501
    shapes += (tuple(logits.shape),)  # ok
    cached = cached + [logits.softmax(-1)]  # expect: TEN501
    probs_ok = probs_ok + [logits.softmax(-1).detach()]  # ok
print(len(outputs_seen), shapes[0], len(cached), len(probs_ok))
