"""Collects embeddings during training for a later projection plot."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

encoder = nn.Sequential(nn.Linear(10, 12), nn.ReLU(), nn.Linear(12, 2))
head = nn.Linear(2, 4)
params = list(encoder.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=3e-3)

emb_hist = torch.empty(0, 2)
emb_plot = torch.empty(0, 2)
label_hist = torch.empty(0, dtype=torch.long)
logit_hist = torch.zeros(0, 4)

for batch_idx in range(8):
    x = torch.randn(16, 10)
    y = torch.randint(0, 4, (16,))
    z = encoder(x)
    logits = head(z)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()

    emb_hist = torch.cat([emb_hist, z])  # expect: TEN501
    emb_plot = torch.cat([emb_plot, z.detach()])  # ok
    label_hist = torch.cat((label_hist, y))  # ok
    logit_hist = torch.vstack([logit_hist, logits.detach().softmax(-1)])  # ok

print(emb_hist.shape, emb_plot.shape, label_hist.shape, logit_hist.shape)
