"""Trainer driving the LM with callbacks."""
import math

import torch


class Trainer:
    def __init__(self, model, callbacks, lr=1e-2, aux_weight=0.01):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.aux_weight = aux_weight
        self.history = []
        self.state = {"loss_ema": None}

    def fit(self, batches, eval_batches, epochs=2):
        from .callbacks import record
        step = 0
        for epoch in range(epochs):
            for tokens in batches:
                loss = self.model.lm_loss(tokens)
                aux = self.model.pop_aux_loss()
                total = loss + self.aux_weight * aux
                self.opt.zero_grad()
                total.backward()
                self.opt.step()
                prev = self.state["loss_ema"]
                self.state["loss_ema"] = loss.item() if prev is None else 0.9 * prev + 0.1 * loss.item()  # ok
                record(self.history, step=step, loss=loss, aux=aux)  # ok
                for cb in self.callbacks:
                    cb.on_step_end(self, step, loss)  # expect: TEN501
                step += 1
            ppl = self.perplexity(eval_batches)
            for cb in self.callbacks:
                cb.on_eval_end(self, ppl)  # ok

    @torch.no_grad()
    def perplexity(self, batches):
        nll = []
        for tokens in batches:
            nll.append(self.model.lm_loss(tokens))  # ok
            self.model.ffn.aux_losses.clear()
        return torch.exp(torch.stack(nll).mean())

    def generate(self, prompt, n=5):
        out = prompt.clone()
        for _ in range(n):
            with torch.no_grad():
                logits = self.model(out[:, -4:])
            out = torch.cat([out, logits[:, -1].argmax(-1, keepdim=True)], dim=1)  # ok
        self.model.ffn.aux_losses.clear()
        return out
