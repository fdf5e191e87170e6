import torch
import torch.nn.functional as F

from .state_utils import clone_weights, cpu_weights, deserialize, get_weights, serialize


class Trainer:
    def __init__(self, model, callback, lr=0.05):
        self.model = model
        self.callback = callback
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.init = cpu_weights(model)  # expect: TEN402
        self.init_copy = clone_weights(model)  # ok
        self.blob = serialize(model)  # ok

    def fit(self, x, y, epochs=12):
        best_loss, best = float("inf"), None
        for _ in range(epochs):
            self.opt.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            loss.backward()
            self.opt.step()
            if loss.item() < best_loss:
                best_loss = loss.item()
                best = get_weights(self.model)  # expect: TEN402
            if self.callback(self.model, loss.item()):
                break
        return best

    def drift_from_init(self):
        return sum((v - self.init[k]).abs().sum().item() for k, v in self.model.state_dict().items())

    def reset_from_blob(self):
        self.model.load_state_dict(deserialize(self.blob))
