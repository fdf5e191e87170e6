"""Linear probe on a frozen feature extractor, then partial unfreezing."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

backbone = nn.Sequential(
    nn.Linear(32, 64), nn.BatchNorm1d(64), nn.ReLU(),
    nn.Linear(64, 64), nn.ReLU(),
    nn.Linear(64, 48), nn.ReLU(),
)
backbone.requires_grad_(False)
backbone.eval()
head = nn.Linear(48, 5)

x_all = torch.randn(300, 32)
y_all = (x_all[:, :5] * torch.arange(1, 6)).argmax(1)
batches = [(x_all[i:i + 50], y_all[i:i + 50]) for i in range(0, 300, 50)]

feature_cache = {}
head_losses = []
confidence_log = []
tuned_feature_means = []

opt = torch.optim.Adam(head.parameters(), lr=1e-2)
for epoch in range(2):
    for i, (x, y) in enumerate(batches):
        if i not in feature_cache:
            feature_cache[i] = backbone(x)  # ok
        logits = head(feature_cache[i])
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        head_losses.append(loss)  # expect: TEN501
        confidence_log.append(logits.softmax(-1).amax(1).mean().item())  # ok
    print(f"probe epoch {epoch}: loss {torch.stack(head_losses[-6:]).mean().item():.4f}")

# phase 2: unfreeze the last block and fine-tune it together with the head
backbone[-2].requires_grad_(True)
opt = torch.optim.Adam([{"params": head.parameters()}, {"params": backbone[-2].parameters(), "lr": 1e-3}], lr=5e-3)
trunk, top = backbone[:-2], backbone[-2:]
for i, (x, y) in enumerate(batches):
    with torch.no_grad():
        mid = trunk(x)
    feats = top(mid)
    loss = F.cross_entropy(head(feats), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    tuned_feature_means.append(feats.mean(0).detach())  # ok
    feature_cache[i] = mid  # ok
print("fine-tuned loss %.4f" % loss.item())
