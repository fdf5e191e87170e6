"""Per-epoch validation predictions, checkpoint bookkeeping and numpy summaries."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def predict(model, batches):
    model.eval()
    all_probs = []
    for xb in batches:
        all_probs.append(torch.sigmoid(model(xb)).squeeze(-1))  # ok
    model.train()
    return torch.cat(all_probs)


@torch.inference_mode()
def predict_inference(model, batches):
    model.eval()
    probs = torch.cat([torch.sigmoid(model(xb)).squeeze(-1) for xb in batches])
    model.train()
    return probs


def pairwise_auc(scores, labels):
    pos, neg = scores[labels == 1], scores[labels == 0]
    return (pos.unsqueeze(1) > neg.unsqueeze(0)).float().mean()


n_epochs = 3
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
xt, yt = torch.randn(16, 4), torch.randint(0, 2, (16,)).float()
val_batches = [torch.randn(6, 4) for _ in range(2)]
yv = torch.tensor([0, 1] * 6).float()

epoch_preds, epoch_preds_clean = {}, {}
aucs, checkpoints, checkpoints_clean = [], [], []
best = None
val_loss_objects = np.empty(n_epochs, dtype=object)
val_loss_values = np.zeros(n_epochs)
for epoch in range(n_epochs):
    loss = F.binary_cross_entropy_with_logits(model(xt).squeeze(-1), yt)
    opt.zero_grad()
    loss.backward()
    opt.step()

    probs = predict(model, val_batches)
    epoch_preds[epoch] = probs  # expect: TEN501
    epoch_preds_clean[epoch] = predict_inference(model, val_batches)  # ok
    aucs.append(pairwise_auc(probs, yv).item())  # ok
    val_loss = F.binary_cross_entropy(probs, yv)
    checkpoints.append({"epoch": epoch, "val_loss": val_loss})  # expect: TEN501
    checkpoints_clean.append({"epoch": epoch, "val_loss": val_loss.item(), "state": {k: v.clone() for k, v in model.state_dict().items()}})  # ok
    best = {"epoch": epoch, "val_loss": val_loss} if best is None or val_loss < best["val_loss"] else best  # either
    val_loss_objects[epoch] = val_loss  # expect: TEN501
    val_loss_values[epoch] = val_loss.item()  # ok

print("aucs:", [round(a, 3) for a in aucs], "val:", np.round(val_loss_values, 4).tolist(), "best epoch:", best["epoch"])
