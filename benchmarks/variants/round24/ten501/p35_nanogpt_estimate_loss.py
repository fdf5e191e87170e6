"""nanoGPT-style estimate_loss(); one copy lost its @torch.no_grad() decorator."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
vocab, block, eval_iters = 16, 8, 3
data = {"train": torch.randint(0, vocab, (200,)), "val": torch.randint(0, vocab, (100,))}


def get_batch(split):
    d = data[split]
    ix = torch.randint(len(d) - block - 1, (4,))
    return torch.stack([d[i:i + block] for i in ix]), torch.stack([d[i + 1:i + block + 1] for i in ix])


class Bigram(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = nn.Embedding(vocab, vocab)

    def forward(self, idx, targets):
        logits = self.table(idx)
        return logits, F.cross_entropy(logits.view(-1, vocab), targets.view(-1))


@torch.no_grad()
def estimate_loss(model):
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logits, loss = model(X, Y)
            losses[k] = loss.item()  # ok
        out[split] = losses.mean()
    model.train()
    return out


def estimate_loss_no_decorator(model):
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logits, loss = model(X, Y)
            losses[k] = loss  # expect: TEN501
        out[split] = losses.mean()
    model.train()
    return out


model = Bigram()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
train_losses, train_losses_ok = [], []
for it in range(6):
    if it % 2 == 0:
        train_losses.append(estimate_loss_no_decorator(model)["train"])  # expect: TEN501
        train_losses_ok.append(estimate_loss(model)["train"])  # ok
    xb, yb = get_batch("train")
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    lossf = loss.item()
print(lossf, [round(float(t), 3) for t in train_losses], train_losses_ok[-1].requires_grad)
