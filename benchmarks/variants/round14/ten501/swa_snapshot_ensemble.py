"""Snapshot ensembling plus a manually maintained stochastic weight average."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_model():
    return nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))


def main(cycles=3, steps_per_cycle=6, bs=24):
    torch.manual_seed(0)
    x = torch.randn(144, 6)
    y = (x[:, 0] ** 2 + x[:, 1] > 1).long()
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=steps_per_cycle)

    snapshots, lr_trace = [], []
    swa_params = [p.detach().clone() for p in model.parameters()]
    n_averaged = 0
    for cycle in range(cycles):
        for step in range(steps_per_cycle):
            idx = torch.randint(0, 144, (bs,))
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            lr_trace.append(opt.param_groups[0]["lr"])  # ok
        snapshots.append(copy.deepcopy(model.state_dict()))  # ok
        with torch.no_grad():
            for avg_p, p in zip(swa_params, model.parameters()):
                avg_p.mul_(n_averaged / (n_averaged + 1)).add_(p, alpha=1 / (n_averaged + 1))  # ok
        n_averaged += 1  # ok
        print(f"cycle {cycle}: loss={loss.item():.4f} lr_end={lr_trace[-1]:.4f}")

    ensemble_logits = []
    member = make_model()
    with torch.no_grad():
        for sd in snapshots:
            member.load_state_dict(sd)
            ensemble_logits.append(member(x))  # ok
        ens_acc = (torch.stack(ensemble_logits).mean(0).argmax(-1) == y).float().mean().item()
        swa_model = make_model()
        for tgt, src in zip(swa_model.parameters(), swa_params):
            tgt.copy_(src)
        swa_acc = (swa_model(x).argmax(-1) == y).float().mean().item()
    print(f"ensemble acc {ens_acc:.3f}  swa acc {swa_acc:.3f}  members {len(snapshots)}")


if __name__ == "__main__":
    main()
