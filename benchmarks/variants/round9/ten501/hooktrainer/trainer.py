import torch
import torch.nn as nn


class Trainer:
    """Small event-driven training loop.

    Callbacks are plain objects; any method whose name matches an event
    (``on_fit_start``, ``on_epoch_start``, ``on_train_batch_end``,
    ``on_val_batch_end``, ``on_val_end``, ``on_epoch_end``) is invoked with the
    trainer as first argument.
    """

    def __init__(self, model, optimizer, loss_fn=None, callbacks=(), device="cpu",
                 grad_clip=None, scheduler=None):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.loss_fn = loss_fn or nn.CrossEntropyLoss()
        self.callbacks = list(callbacks)
        self.device = device
        self.grad_clip = grad_clip
        self.epoch = 0
        self.global_step = 0
        self.should_stop = False
        self.logged = {}

    def _fire(self, event, **kwargs):
        for cb in self.callbacks:
            handler = getattr(cb, event, None)
            if handler is not None:
                handler(self, **kwargs)

    def _to_device(self, batch):
        x, y = batch
        return x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)

    def fit(self, train_loader, val_loader=None, epochs=1):
        self._fire("on_fit_start")
        for epoch in range(epochs):
            self.epoch = epoch
            self.model.train()
            self._fire("on_epoch_start")
            for batch_idx, batch in enumerate(train_loader):
                x, y = self._to_device(batch)
                logits = self.model(x)
                loss = self.loss_fn(logits, y)

                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                if self.grad_clip is not None:
                    nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
                self.optimizer.step()
                if self.scheduler is not None:
                    self.scheduler.step()
                self.global_step += 1
                self._fire("on_train_batch_end", batch_idx=batch_idx, loss=loss, logits=logits, target=y)  # expect: TEN501

            if val_loader is not None:
                self.validate(val_loader)
            self._fire("on_epoch_end")
            if self.should_stop:
                break
        self._fire("on_fit_end")

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        self._fire("on_val_start")
        for batch_idx, batch in enumerate(loader):
            x, y = self._to_device(batch)
            logits = self.model(x)
            loss = self.loss_fn(logits, y)
            self._fire("on_val_batch_end", batch_idx=batch_idx, loss=loss, logits=logits, target=y)  # ok
        self._fire("on_val_end")
