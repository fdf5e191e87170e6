"""Save / restore the meta-parameters around a task's inner loop."""
import torch


class WeightStash:
    def __init__(self):
        self._saved = None

    def stash(self, model):
        self._saved = [p.detach() for p in model.parameters()]  # expect: TEN402

    @torch.no_grad()
    def restore(self, model):
        if self._saved is None:
            raise RuntimeError("nothing stashed")
        for p, s in zip(model.parameters(), self._saved):
            p.copy_(s)

    @property
    def saved(self):
        return self._saved
