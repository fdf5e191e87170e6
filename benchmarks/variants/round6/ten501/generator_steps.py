"""Training expressed as generators: each step yields its results to a driver
loop that handles logging, checkpoints and evaluation."""
import itertools

import torch
import torch.nn as nn
import torch.nn.functional as F


class TextCNN(nn.Module):
    def __init__(self, vocab=100, emb=16, n_cls=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.conv = nn.Conv1d(emb, 16, 3, padding=1)
        self.fc = nn.Linear(16, n_cls)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = F.relu(self.conv(h)).max(-1).values
        return self.fc(h)


def batches(n, seed, bs=8, seq=12):
    g = torch.Generator().manual_seed(seed)
    for _ in range(n):
        tokens = torch.randint(0, 100, (bs, seq), generator=g)
        labels = (tokens[:, 0] > 50).long()
        yield tokens, labels


def train_steps(model, opt, data_iter):
    model.train()
    for tokens, labels in data_iter:
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss, logits


@torch.no_grad()
def eval_steps(model, data_iter):
    model.eval()
    for tokens, labels in data_iter:
        yield model(tokens), labels


def drive(model, opt, max_steps=30, log_every=10):
    running = []
    seen_logits = []
    stream = itertools.chain.from_iterable(batches(10, seed=s) for s in itertools.count())
    for step, (loss, logits) in enumerate(train_steps(model, opt, stream)):
        running.append(loss)  # expect: TEN501
        seen_logits.append(logits.detach())  # ok
        if (step + 1) % log_every == 0:
            avg = torch.stack(running[-log_every:]).mean().item()
            val_logits, val_labels = [], []
            for out, y in eval_steps(model, batches(3, seed=999)):
                val_logits.append(out)  # ok
                val_labels.append(y)
            acc = (torch.cat(val_logits).argmax(1) == torch.cat(val_labels)).float().mean().item()
            model.train()
            print(f"step {step + 1}: loss {avg:.4f} val_acc {acc:.3f}")
        if step + 1 >= max_steps:
            break
    return running, seen_logits


def main():
    torch.manual_seed(0)
    model = TextCNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    running, seen = drive(model, opt)
    print(len(running), len(seen))


if __name__ == "__main__":
    main()
