import torch


class Engine:
    def __init__(self, name, model, optimizer, loss_fn, callbacks=(), detach_for_callbacks=False):
        self.name = name
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self.callbacks = list(callbacks)
        self.detach_for_callbacks = detach_for_callbacks
        self.epoch = 0
        self.batch_losses = []

    def _run_callbacks(self, hook, **kw):
        for cb in self.callbacks:
            getattr(cb, hook)(self, **kw)

    def _train_batch(self, x, y):
        out = self.model(x)
        loss = self.loss_fn(out, y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss, out

    def train_epoch(self, loader):
        self.model.train()
        epoch_loss = 0.0
        for x, y in loader:
            loss, out = self._train_batch(x, y)
            epoch_loss += loss.item()  # ok
            if self.detach_for_callbacks:
                self._run_callbacks("on_batch_end", loss=loss.detach(), output=out.detach())  # ok
                self.batch_losses.append(loss.detach())  # ok
            else:
                self._run_callbacks("on_batch_end", loss=loss, output=out)  # expect: TEN501
                self.batch_losses.append(loss)  # expect: TEN501
        return epoch_loss / len(loader)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        outs = []
        for x, y in loader:
            outs.append(self.loss_fn(self.model(x), y))  # ok
        return torch.stack(outs).mean().item()

    def fit(self, train_loader, val_loader, epochs):
        for self.epoch in range(epochs):
            tr = self.train_epoch(train_loader)
            va = self.evaluate(val_loader)
            self._run_callbacks("on_epoch_end", metrics={"train": tr, "val": va})  # ok
        return self
