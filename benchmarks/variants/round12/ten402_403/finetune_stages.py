"""Multi-stage fine-tuning with rollback when a stage makes things worse."""
import copy

import torch
import torch.nn as nn


class StageRunner:
    def __init__(self, model: nn.Module, lr: float = 1e-4):
        self.model = model
        self.lr = lr
        self._rollback_point = None

    def mark(self):
        """Remember the current weights so that a stage can be undone."""
        self._rollback_point = copy.copy(self.model.state_dict())  # expect: TEN402

    def run_stage(self, loader, epochs: int, trainable=None):
        params = [p for n, p in self.model.named_parameters()
                  if trainable is None or any(n.startswith(t) for t in trainable)]
        opt = torch.optim.Adam(params, lr=self.lr)
        for _ in range(epochs):
            for x, y in loader:
                opt.zero_grad()
                nn.functional.cross_entropy(self.model(x), y).backward()
                opt.step()


class GuardedStageRunner(StageRunner):
    """Rolls a stage back if the validation accuracy dropped."""

    def __init__(self, model, evaluate, lr=1e-4):
        super().__init__(model, lr)
        self.evaluate = evaluate

    def rollback(self):
        if self._rollback_point is not None:
            self.model.load_state_dict(self._rollback_point)

    def guarded_stage(self, loader, epochs, trainable=None):
        before = self.evaluate(self.model)
        self.mark()
        self.run_stage(loader, epochs, trainable)
        after = self.evaluate(self.model)
        if after < before:
            self.rollback()
            return before
        return after


class CopyingStageRunner(GuardedStageRunner):
    def mark(self):
        self._rollback_point = {
            name: tensor.clone() for name, tensor in self.model.state_dict().items()  # ok
        }


def progressive_unfreeze(model, loader, evaluate, groups=("head", "layer4", "layer3")):
    runner = CopyingStageRunner(model, evaluate)
    trainable = []
    for g in groups:
        trainable.append(g)
        acc = runner.guarded_stage(loader, epochs=1, trainable=list(trainable))
        print(f"after unfreezing {g}: acc={acc:.3f}")
    final_weights = copy.deepcopy(model.state_dict())  # ok
    return final_weights
