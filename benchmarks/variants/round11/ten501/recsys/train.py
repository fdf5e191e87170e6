import torch

from .meters import AverageMeter, StatBank
from .model import MFModel


def sample_triples(interactions, n_items, batch):
    idx = torch.randint(0, interactions.size(0), (batch,))
    u, pos = interactions[idx, 0], interactions[idx, 1]
    neg = torch.randint(0, n_items, (batch,))
    return u, pos, neg


def train(interactions, n_users, n_items, epochs=10, steps=200, batch=1024):
    model = MFModel(n_users, n_items)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    rank_meter = AverageMeter("rank")
    reg_meter = AverageMeter("reg")
    bank = StatBank()
    for epoch in range(epochs):
        rank_meter.reset()
        reg_meter.reset()
        for _ in range(steps):
            u, pos, neg = sample_triples(interactions, n_items, batch)
            rank, reg = model.bpr_loss(u, pos, neg)
            loss = rank + reg
            opt.zero_grad()
            loss.backward()
            opt.step()
            rank_meter.update(rank, n=batch)  # expect: TEN501
            reg_meter.update(reg.item(), n=batch)  # ok
            bank.add("loss", loss)  # ok
        print(epoch, rank_meter, reg_meter, bank.mean("loss"))
    return model


@torch.no_grad()
def recall_at_k(model, test_pairs, k=10):
    hits = AverageMeter("recall")
    all_items = torch.arange(model.item.num_embeddings)
    for u, i in test_pairs:
        scores = model.score(torch.full_like(all_items, u), all_items)
        topk = scores.topk(k).indices
        hits.update((topk == i).any().float())  # ok
    return hits.avg
