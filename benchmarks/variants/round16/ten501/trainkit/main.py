import torch

from .engine import BoxRegressor, Engine
from .tracking import RUN_REGISTRY, Tracker, register_best

torch.manual_seed(0)


def synthetic_batches(n_batches, bs=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n_batches):
        x = torch.randn(bs, 16, generator=g)
        xy = x[:, :2].tanh()
        wh = 0.5 + x[:, 2:4].sigmoid()
        out.append({"x": x, "boxes": torch.cat([xy, xy + wh], 1), "labels": (x[:, 4] > 0).long() + (x[:, 5] > 1).long()})
    return out


def main():
    model = BoxRegressor()
    engine = Engine(model, torch.optim.Adam(model.parameters(), lr=3e-3))
    train_tracker, val_tracker = Tracker("train"), Tracker("val")
    train_batches, val_batches = synthetic_batches(6), synthetic_batches(2, seed=1)
    global_step = 0
    for epoch in range(3):
        for step, batch in enumerate(train_batches):
            terms = engine.train_step(batch)
            train_tracker.log_step(global_step, terms)  # expect: TEN501
            global_step += 1
        for batch in val_batches:
            val_terms = engine.eval_step(batch)
            val_tracker.log_step(global_step, val_terms)  # ok
        summary = engine.end_epoch()
        register_best("cls", summary["cls"])  # ok
        register_best("last_box", terms["box"])  # expect: TEN501
        print(f"epoch {epoch}: {summary}")
    print(val_tracker.dump(), len(RUN_REGISTRY["last_box"]))


if __name__ == "__main__":
    main()
