"""Entry point: python -m seq2seq_proj.trainer"""
import torch

from seq2seq_proj.models import Seq2Seq, compute_losses, make_batch
from seq2seq_proj.tracking import History


class Trainer:
    def __init__(self, model, lr=3e-3, steps_per_epoch=20, seed=0):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.steps_per_epoch = steps_per_epoch
        self.gen = torch.Generator().manual_seed(seed)
        self.history = History()
        self.val_history = History()
        self.token_count = 0
        self.epoch_nll = 0.0

    def training_step(self, batch):
        terms = compute_losses(self.model, batch)
        self.opt.zero_grad()
        terms["loss"].backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        return terms

    def train_epoch(self):
        self.model.train()
        self.epoch_nll = 0.0
        for _ in range(self.steps_per_epoch):
            batch = make_batch(generator=self.gen)
            terms = self.training_step(batch)
            self.history.log(terms)  # expect: TEN501
            self.epoch_nll += terms["nll"]  # expect: TEN501
            self.history.log({"tok_acc_copy": terms["tok_acc"]})  # ok
            self.token_count += batch["tgt_mask"].sum()  # ok
        return float(self.epoch_nll) / self.steps_per_epoch

    def validate(self, n_batches=4):
        self.model.eval()
        with torch.no_grad():
            for _ in range(n_batches):
                vterms = compute_losses(self.model, make_batch(generator=self.gen))
                self.val_history.log(vterms)  # ok
        self.model.train()
        return self.val_history.mean("nll", last=n_batches), self.val_history.mean("tok_acc", last=n_batches)

    def fit(self, epochs=3):
        for epoch in range(epochs):
            tr_nll = self.train_epoch()
            va_nll, va_acc = self.validate()
            print(f"epoch {epoch}: train nll {tr_nll:.3f} val nll {va_nll:.3f} "
                  f"tok acc {va_acc:.3f} tokens {int(self.token_count)}")


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(Seq2Seq()).fit()
