"""Metric learning with batch-hard triplet mining and a retrieval gallery."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def batch_hard_triplet(emb, labels, margin):
    dist = torch.cdist(emb, emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    d_ap = (dist * same.float()).max(1).values
    d_an = (dist + 1e3 * same.float()).min(1).values
    return F.relu(d_ap - d_an + margin).mean(), d_ap, d_an


class EmbeddingNet(nn.Module):
    def __init__(self, dim_in=24, dim_out=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim_in, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, dim_out))

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


def sample_pk(x, y, p=4, k=4):
    classes = torch.randperm(int(y.max()) + 1)[:p]
    idx = torch.cat([torch.nonzero(y == c).flatten()[torch.randperm(int((y == c).sum()))[:k]] for c in classes])
    return x[idx], y[idx]


def main(steps=10, margin=0.3):
    torch.manual_seed(0)
    protos = torch.randn(6, 24) * 2
    y = torch.arange(6).repeat_interleave(20)
    x = protos[y] + torch.randn(120, 24)
    model = EmbeddingNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    gallery_embeddings, gallery_labels = [], []
    ap_means, an_means = [], []
    violations = 0
    for step in range(steps):
        xb, yb = sample_pk(x, y)
        emb = model(xb)
        loss, d_ap, d_an = batch_hard_triplet(emb, yb, margin)
        opt.zero_grad()
        loss.backward()
        opt.step()
        gallery_embeddings.append(emb)  # expect: TEN501
        gallery_labels.append(yb)  # ok
        violations += (d_ap - d_an + margin > 0).sum().item()  # ok
        ap_means.append(d_ap.detach().mean())  # ok
        an_means.append(d_an.mean())  # expect: TEN501
    g = torch.cat(gallery_embeddings)
    gl = torch.cat(gallery_labels)
    sims = g @ g.t() - 2 * torch.eye(len(g))
    recall1 = (gl[sims.argmax(1)] == gl).float().mean().item()
    print(f"violations={violations} recall@1={recall1:.3f} "
          f"ap={torch.stack(ap_means).mean().item():.3f} an={torch.stack(an_means).mean().item():.3f}")


if __name__ == "__main__":
    main()
