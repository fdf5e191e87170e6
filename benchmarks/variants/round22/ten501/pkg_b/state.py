"""Module-level buffers shared across the package."""
PREDICTIONS = []
PREDICTIONS_SAFE = []
N_STASHED = 0


def stash(pred):
    global N_STASHED
    PREDICTIONS.append(pred)  # expect: TEN501
    N_STASHED += 1  # ok


def stash_safe(pred):
    PREDICTIONS_SAFE.append(pred.detach().cpu())  # ok
