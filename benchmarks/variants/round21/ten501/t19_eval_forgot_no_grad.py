"""Evaluation / feature-extraction helpers called from the training loop, with and without no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Dropout(0.1), nn.Linear(48, 16))
        self.head = nn.Linear(16, 3)

    def embed(self, x):
        return self.features(x)

    def forward(self, x):
        return self.head(F.relu(self.embed(x)))


def predict(model, loader):
    model.eval()  # eval() only changes dropout/BN behaviour, autograd is still on
    preds = []
    for xb, _ in loader:
        preds.append(model(xb))  # expect: TEN501
    model.train()
    return torch.cat(preds)


@torch.no_grad()
def predict_no_grad(model, loader):
    model.eval()
    preds = []
    for xb, _ in loader:
        preds.append(model(xb))  # ok
    model.train()
    return torch.cat(preds)


def extract_embeddings(model, loader):
    embeddings = torch.empty(0, 16)
    for xb, _ in loader:
        embeddings = torch.cat([embeddings, model.embed(xb)])  # expect: TEN501
    return embeddings


def extract_embeddings_inference(model, loader):
    out = []
    with torch.inference_mode():
        for xb, _ in loader:
            out.append(model.embed(xb))  # ok
    return torch.cat(out)


def class_prototypes(model, loader):
    sums = torch.zeros(3, 16)
    counts = torch.zeros(3)
    with torch.set_grad_enabled(False):
        for xb, yb in loader:
            e = model.embed(xb)
            sums.index_add_(0, yb, e)  # ok
            counts += torch.bincount(yb, minlength=3)
    return sums / counts.clamp(min=1).unsqueeze(1)


x = torch.randn(320, 12)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
train_loader = [(x[i:i + 32], y[i:i + 32]) for i in range(0, 256, 32)]
val_loader = [(x[i:i + 32], y[i:i + 32]) for i in range(256, 320, 32)]
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

epoch_preds, epoch_preds_ok, val_accs = {}, {}, []
for epoch in range(3):
    for xb, yb in train_loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    epoch_preds[epoch] = predict(model, val_loader)  # expect: TEN501
    epoch_preds_ok[epoch] = predict_no_grad(model, val_loader)  # ok
    val_accs.append((epoch_preds_ok[epoch].argmax(1) == y[256:]).float().mean().item())  # ok

model.eval()
emb = extract_embeddings(model, train_loader)
emb_ok = extract_embeddings_inference(model, train_loader)
protos = class_prototypes(model, train_loader)
print("val acc per epoch:", [round(a, 3) for a in val_accs])
print("prediction drift:", (epoch_preds[2] - epoch_preds[0]).abs().mean().item())
print("embedding agreement:", torch.allclose(emb.detach(), emb_ok, atol=1e-5), "proto norms:", protos.norm(dim=1).tolist())
