"""Builds a uniform weight soup from the snapshots gathered by collect.py."""
import torch

from collect import SnapshotCollector, build_model, fake_text_batches, finetune


@torch.no_grad()
def uniform_soup(model, snapshots):
    if not snapshots:
        raise ValueError("need at least one snapshot")
    averaged = [torch.zeros_like(p) for p in model.parameters()]
    for snap in snapshots:
        for acc, w in zip(averaged, snap):
            acc.add_(w, alpha=1.0 / len(snapshots))
    for p, w in zip(model.parameters(), averaged):
        p.copy_(w)
    return model


@torch.no_grad()
def snapshot_spread(snapshots):
    """Average L2 distance of each snapshot from the first one (diagnostic)."""
    first = snapshots[0]
    dists = []
    for snap in snapshots[1:]:
        d = sum((a - b).pow(2).sum() for a, b in zip(snap, first)).sqrt()
        dists.append(d.item())
    return sum(dists) / max(len(dists), 1)


@torch.no_grad()
def accuracy(model, batches):
    hits = total = 0
    for tokens, labels in batches:
        hits += (model(tokens).argmax(-1) == labels).sum().item()
        total += labels.numel()
    return hits / total


def main(epochs=6):
    torch.manual_seed(0)
    data = fake_text_batches()
    model = build_model()
    collector = finetune(model, data, epochs, SnapshotCollector(start_epoch=2))
    print(f"{len(collector)} snapshots from epochs {collector.epochs}")
    print(f"spread between snapshots: {snapshot_spread(collector.snapshots):.4f}")
    print(f"last-epoch acc: {accuracy(model, data):.3f}")
    uniform_soup(model, collector.snapshots)
    print(f"soup acc: {accuracy(model, data):.3f}")


if __name__ == "__main__":
    main()
