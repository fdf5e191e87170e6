import torch
import torch.nn as nn
import torch.nn.functional as F

from .manager import CheckpointManager, CloningManager, InMemoryTopK


def run(manager_cls):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    x, y = torch.randn(32, 4), torch.randn(32, 1)
    mgr = manager_cls()
    metrics = [0.9, 0.1, 0.2, 0.3]
    kept = None
    for epoch, m in enumerate(metrics):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        if mgr.save_best(model, opt, m):
            kept = {k: v.clone() for k, v in model.state_dict().items()}
    mgr.restore_best(model, opt)
    return all(torch.equal(v, kept[k]) for k, v in model.state_dict().items())


def run_topk():
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    store = InMemoryTopK()
    for m in [0.5, 0.1]:
        opt.zero_grad()
        model(torch.ones(2, 4)).sum().backward()
        opt.step()
        store.save_best(model, m)
    store.load_best(model)


if __name__ == "__main__":
    print("CheckpointManager restores the best:", run(CheckpointManager))
    print("CloningManager restores the best:", run(CloningManager))
    run_topk()
