"""L2-SP fine-tuning: penalise distance from the pre-trained starting point."""
import torch
import torch.nn.functional as F

from .snapshots import capture, capture_frozen


class L2SPTrainer:
    def __init__(self, model, store, alpha=0.5, lr=0.1):
        self.model = model
        self.store = store
        self.alpha = alpha
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.anchor = capture(model)  # either: TEN402
        self.initial = capture_frozen(model)

    def penalty(self):
        return sum(((p - self.anchor[n]) ** 2).sum() for n, p in self.model.named_parameters())

    def fit(self, x, y, epochs):
        for ep in range(epochs):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(x), y) + self.alpha * self.penalty()
            loss.backward()
            self.opt.step()
            if ep == epochs // 2:
                self.store.put("mid", self.model)  # either: TEN402
                self.store.put_copy("mid_copy", self.model)
        return loss.item()

    def drift(self):
        cur = self.model.state_dict()
        return sum((cur[k] - self.initial[k]).norm().item() for k in cur)
