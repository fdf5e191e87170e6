"""BiLSTM token tagger for NER; all bookkeeping is done on detached values."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Tagger(nn.Module):
    def __init__(self, vocab, n_tags, d=100, h=200):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.lstm = nn.LSTM(d, h, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * h, n_tags)

    def forward(self, tokens):
        return self.out(self.lstm(self.emb(tokens))[0])


def spans(tags, id2tag):
    out, start, kind = set(), None, None
    for i, t in enumerate(tags + [0]):
        name = id2tag.get(t, "O")
        if start is not None and not name.startswith("I-"):
            out.add((start, i, kind))
            start = None
        if name.startswith("B-"):
            start, kind = i, name[2:]
    return out


def train(model, loader, id2tag, epochs=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    history = defaultdict(list)
    for epoch in range(epochs):
        model.train()
        tot_loss, tot_tok, tot_hit = 0.0, 0, 0
        for tokens, tags in loader:
            logits = model(tokens)
            mask = tokens != 0
            loss = F.cross_entropy(logits[mask], tags[mask])
            opt.zero_grad()
            loss.backward()
            opt.step()
            n = int(mask.sum())
            tot_loss += float(loss) * n  # ok
            tot_tok += n  # ok
            tot_hit += (logits.argmax(-1)[mask] == tags[mask]).sum().item()  # ok
            history["loss"].append(loss.detach())  # ok
            history["lr"].append(opt.param_groups[0]["lr"])  # ok
            history["grad_norm"].append(  # ok
                torch.norm(torch.stack([p.grad.norm() for p in model.parameters() if p.grad is not None]))
            )
        history["epoch_loss"].append(tot_loss / tot_tok)  # ok
        history["epoch_acc"].append(tot_hit / tot_tok)  # ok
        history["f1"].append(evaluate(model, loader, id2tag))  # ok
    return history


@torch.no_grad()
def evaluate(model, loader, id2tag):
    model.eval()
    tp = fp = fn = 0
    all_logits = []
    for tokens, tags in loader:
        logits = model(tokens)
        all_logits.append(logits)  # ok
        pred = logits.argmax(-1)
        for p_row, g_row, m_row in zip(pred.tolist(), tags.tolist(), (tokens != 0).tolist()):
            L = sum(m_row)
            ps, gs = spans(p_row[:L], id2tag), spans(g_row[:L], id2tag)
            tp += len(ps & gs)  # ok
            fp += len(ps - gs)  # ok
            fn += len(gs - ps)  # ok
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    return 2 * prec * rec / max(prec + rec, 1e-9)
