"""A Lightning-flavoured module + tiny loop for wav2vec 2.0 CTC fine-tuning."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Wav2Vec2CTCModule(nn.Module):
    def __init__(self, encoder, vocab_size, lr=3e-5, freeze_feature_encoder=True):
        super().__init__()
        self.encoder = encoder
        self.lm_head = nn.Linear(encoder.config.hidden_size, vocab_size)
        self.lr = lr
        if freeze_feature_encoder:
            for p in self.encoder.feature_extractor.parameters():
                p.requires_grad = False
        self._logged = defaultdict(list)
        self._train_outputs = []
        self._val_outputs = []

    def log(self, name, value):
        self._logged[name].append(value)

    def forward(self, input_values, attention_mask=None):
        hidden = self.encoder(input_values, attention_mask=attention_mask).last_hidden_state
        return self.lm_head(hidden)

    def _ctc(self, batch):
        logits = self(batch["input_values"], batch.get("attention_mask"))
        log_probs = F.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)
        input_lengths = self.encoder._get_feat_extract_output_lengths(batch["attention_mask"].sum(-1))
        target_lengths = (batch["labels"] >= 0).sum(-1)
        flat = batch["labels"].masked_select(batch["labels"] >= 0)
        loss = F.ctc_loss(log_probs, flat, input_lengths, target_lengths, blank=0, zero_infinity=True)
        return loss, logits

    def training_step(self, batch, batch_idx):
        loss, _ = self._ctc(batch)
        self._train_outputs.append({"loss": loss, "n": batch["input_values"].size(0)})  # expect: TEN501
        self.log("train/loss", loss.detach())  # ok
        return loss

    def on_train_epoch_end(self):
        n = sum(o["n"] for o in self._train_outputs)
        mean = sum(float(o["loss"]) * o["n"] for o in self._train_outputs) / max(n, 1)
        self._train_outputs.clear()
        return mean

    def validation_step(self, batch, batch_idx):
        loss, logits = self._ctc(batch)
        self._val_outputs.append({"loss": loss, "pred_ids": logits.argmax(-1)})  # ok
        return loss

    def on_validation_epoch_end(self):
        mean = torch.stack([o["loss"] for o in self._val_outputs]).mean().item()
        preds = [o["pred_ids"].cpu() for o in self._val_outputs]
        self._val_outputs.clear()
        return mean, preds

    def configure_optimizers(self):
        params = [p for p in self.parameters() if p.requires_grad]
        return torch.optim.AdamW(params, lr=self.lr, weight_decay=0.005)


def fit(module, train_loader, val_loader, epochs=30, device="cuda", grad_accum=1):
    module.to(device)
    optimizer = module.configure_optimizers()
    for epoch in range(epochs):
        module.train()
        for batch_idx, batch in enumerate(train_loader):
            batch = {k: v.to(device) for k, v in batch.items()}
            loss = module.training_step(batch, batch_idx) / grad_accum
            loss.backward()
            if (batch_idx + 1) % grad_accum == 0:
                nn.utils.clip_grad_norm_(module.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()
        train_loss = module.on_train_epoch_end()

        module.eval()
        with torch.no_grad():
            for batch_idx, batch in enumerate(val_loader):
                module.validation_step({k: v.to(device) for k, v in batch.items()}, batch_idx)
        val_loss, _ = module.on_validation_epoch_end()
        print(f"epoch {epoch}: train {train_loss:.4f} val {val_loss:.4f}")
