"""Lightning-like wrapper exposing get_weights()/set_weights() (used by a tuner)."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class LitModule:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def get_weights(self):
        return self.model.state_dict()  # expect: TEN402

    def get_weights_copy(self):
        return copy.deepcopy(self.model.state_dict())  # ok

    def set_weights(self, sd):
        self.model.load_state_dict(sd)

    def training_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class LitModuleV2(LitModule):
    def get_weights(self):
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok


def hill_climb(lit, x, y, trials=4, use_copy=False):
    """Try a few short bursts of training, keep the best weights between bursts."""
    best = lit.get_weights_copy() if use_copy else lit.get_weights()  # either: TEN402
    best_loss = float("inf")
    for t in range(trials):
        lit.set_weights(best)
        for _ in range(3):
            loss = lit.training_step(x * (1 + 0.5 * t), y)
        with torch.no_grad():
            val = nn.functional.mse_loss(lit.model(x), y).item()
        if val < best_loss:
            best_loss = val
            best = lit.get_weights()  # either: TEN402
    lit.set_weights(best)
    with torch.no_grad():
        return best_loss, nn.functional.mse_loss(lit.model(x), y).item()


if __name__ == "__main__":
    x = torch.randn(32, 4)
    y = x @ torch.randn(4, 2)
    for cls, use_copy in ((LitModule, False), (LitModule, True), (LitModuleV2, False)):
        torch.manual_seed(11)
        lit = cls(nn.Linear(4, 2), lr=0.2)
        bl, final = hill_climb(lit, x, y, use_copy=use_copy)
        print(f"{cls.__name__} use_copy={use_copy}: best {bl:.6f} final {final:.6f}")
