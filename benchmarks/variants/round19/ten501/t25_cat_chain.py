"""Growing prediction tensors with torch.cat across batches."""
import torch
import torch.nn as nn


def collect(model, batches):
    all_preds = torch.empty(0, 2)
    all_preds_ok = torch.empty(0, 2)
    stacked = []
    for x in batches:
        out = model(x)
        all_preds = torch.cat([all_preds, out], dim=0)  # expect: TEN501
        all_preds_ok = torch.cat([all_preds_ok, out.detach()], dim=0)  # ok
        stacked.append(out.detach().numpy())  # ok
    return all_preds, all_preds_ok, stacked


def embeddings(model, batches):
    embs = None
    for x in batches:
        with torch.no_grad():
            e = model(x)
        embs = e if embs is None else torch.cat([embs, e])  # ok
    return embs


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Linear(4, 2)
    batches = [torch.randn(3, 4) for _ in range(4)]
    a, b, c = collect(model, batches)
    e = embeddings(model, batches)
    print(a.shape, float(a.sum()), float(b.sum()), len(c), e.shape)


if __name__ == "__main__":
    main()
