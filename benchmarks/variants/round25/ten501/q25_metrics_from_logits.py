import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(9, 30), nn.Tanh(), nn.Linear(30, 6))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

acc_hist, conf_hist, ent_hist, correct_hist = [], [], [], []
margin_hist = []
for step in range(10):
    x = torch.randn(40, 9)
    y = x[:, :6].argmax(1)
    logits = model(x)
    loss = F.cross_entropy(logits, y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()

    probs = logits.softmax(-1)
    acc = (logits.argmax(1) == y).float().mean()
    confidence = probs.max(1).values.mean()
    entropy = -(probs * probs.clamp_min(1e-9).log()).sum(1).mean()
    acc_hist.append(acc)  # ok
    conf_hist.append(confidence)  # expect: TEN501
    ent_hist.append(entropy.detach())  # ok
    correct_hist.append((logits.argmax(1) == y).sum())  # ok
    margin_hist.append(logits.max(1).values - logits.min(1).values)  # expect: TEN501

print("acc", [round(a.item(), 2) for a in acc_hist[::3]])
print("ece-ish gap", round(float(torch.stack(conf_hist).mean() - torch.stack(acc_hist).mean()), 4))
print("entropy", round(torch.stack(ent_hist).mean().item(), 4), int(sum(correct_hist)))
