import torch
import torch.nn.functional as F

from .model import build_backbone
from .snapshots import SnapshotStore
from .trainer import L2SPTrainer


def main():
    torch.manual_seed(0)
    model = build_backbone()
    x = torch.randn(96, 6)
    y = (x[:, 0] - x[:, 3] > 0.2).long()
    store = SnapshotStore()
    tr = L2SPTrainer(model, store)
    final = tr.fit(x, y, 30)
    print("final objective", round(final, 6))
    print("drift from pretrained", round(tr.drift(), 6))
    probe = build_backbone()
    for key in store.keys():
        probe.load_state_dict(store.get(key))
        with torch.no_grad():
            print(key, "loss", round(F.cross_entropy(probe(x), y).item(), 6))


if __name__ == "__main__":
    main()
