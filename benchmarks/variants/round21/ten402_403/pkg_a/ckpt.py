"""Checkpoint helpers shared by the trainer and the entry point."""
import copy


def snapshot(model):
    """Cheap in-memory snapshot of the model weights (no disk I/O)."""
    return {k: v for k, v in model.state_dict().items()}  # expect: TEN402


def safe_snapshot(model):
    return copy.deepcopy(model.state_dict())  # ok


def restore(model, state):
    model.load_state_dict(state)
