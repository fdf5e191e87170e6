import torch

from . import snapshots
from .loop import CyclicTrainer
from .models import TinyRegressor, make_splits

torch.manual_seed(0)
torch.set_num_threads(1)


def experiment(snapshot_fn, ckpt_how):
    torch.manual_seed(0)
    model = TinyRegressor()
    initial_norms = {k: v.norm().item() for k, v in snapshots.live_state(model).items()}  # ok
    payload = snapshots.serialized_state(model)  # ok
    data, val = make_splits()
    trainer = CyclicTrainer(model, data, val, snapshot_fn, snapshots.Checkpointer(ckpt_how), lr=0.2)
    curve = trainer.run(6)
    final = trainer.val_loss()
    snapshots.load_serialized(model, payload)
    back_to_init = all(abs(v.norm().item() - initial_norms[k]) < 1e-6 for k, v in model.state_dict().items())
    return trainer.best_val, final, trainer.undone, back_to_init, [round(c, 3) for c in curve]


if __name__ == "__main__":
    for fn, how in (("live_state", "live"), ("frozen_state", "frozen")):
        best, final, undone, back, curve = experiment(fn, how)
        print(f"{fn:>12}/{how:<6} best={best:.4f} final={final:.4f} undone={undone} reset_ok={back} {curve}")
