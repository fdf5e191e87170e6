# %% [markdown]
# # Quick MLP baseline on (fake) MNIST
# Exported from a Jupyter notebook; cells are separated by `# %%`.

# %%
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(512, 1, 28, 28)
Y = torch.randint(0, 10, (512,))
Xv = torch.randn(128, 1, 28, 28)
Yv = torch.randint(0, 10, (128,))

# %%
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
bs = 64

# %%
losses = []
accs = []
for epoch in range(3):
    for i in range(0, len(X), bs):
        xb, yb = X[i:i + bs], Y[i:i + bs]
        out = model(xb)
        loss = loss_fn(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss)  # expect: TEN501
        correct = (out.argmax(1) == yb).sum().item()
        accs.append(correct / len(yb))
    print(epoch, sum(accs[-8:]) / 8)

# %%
# plt.plot(torch.stack(losses).detach())
print("final loss", losses[-1].item())

# %%
preds = []
for i in range(0, len(Xv), bs):
    preds.append(model(Xv[i:i + bs]).argmax(1))  # ok
val_acc = (torch.cat(preds) == Yv).float().mean()
val_acc

# %%
probs_list = []
for i in range(0, len(Xv), bs):
    probs_list.append(F.softmax(model(Xv[i:i + bs]), dim=1))  # expect: TEN501
probs = torch.cat(probs_list)
confidence = probs.max(1).values.mean()
print("val acc", val_acc.item(), "mean confidence", confidence.item())

# %%
with torch.no_grad():
    logits_list = []
    for i in range(0, len(Xv), bs):
        logits_list.append(model(Xv[i:i + bs]))  # ok
calib = F.cross_entropy(torch.cat(logits_list), Yv)
print("val nll", calib.item())
