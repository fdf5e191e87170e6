"""A stripped-down HF-style Trainer with compute_loss / training_step /
prediction_step, plus a subclass that adds an auxiliary loss."""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainingArguments:
    num_train_epochs: int = 2
    per_device_train_batch_size: int = 8
    gradient_accumulation_steps: int = 2
    learning_rate: float = 5e-4
    logging_steps: int = 2
    aux_loss_weight: float = 0.1


class TinyTokenClassifier(nn.Module):
    def __init__(self, vocab=50, hidden=16, num_labels=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, num_labels)

    def forward(self, input_ids, attention_mask=None):
        h, _ = self.encoder(self.embed(input_ids))
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return {"logits": self.classifier(h), "hidden_states": h}


class Trainer:
    def __init__(self, model, args, train_dataset, eval_dataset=None):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        self.global_step = 0
        self.log_history = []

    def get_train_dataloader(self):
        bs = self.args.per_device_train_batch_size
        ids, mask, labels = self.train_dataset
        for i in range(0, ids.size(0), bs):
            yield {"input_ids": ids[i:i + bs], "attention_mask": mask[i:i + bs],
                   "labels": labels[i:i + bs]}

    def get_eval_dataloader(self):
        ids, mask, labels = self.eval_dataset
        for i in range(0, ids.size(0), 8):
            yield {"input_ids": ids[i:i + 8], "attention_mask": mask[i:i + 8],
                   "labels": labels[i:i + 8]}

    def compute_loss(self, model, inputs, return_outputs=False):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs["logits"]
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, dict(inputs))
        if self.args.gradient_accumulation_steps > 1:
            loss = loss / self.args.gradient_accumulation_steps
        loss.backward()
        return loss.detach()

    def prediction_step(self, model, inputs):
        with torch.no_grad():
            loss, outputs = self.compute_loss(model, dict(inputs), return_outputs=True)
        return loss, outputs["logits"], inputs["labels"]

    def evaluate(self):
        model = self.model
        model.eval()
        losses_host = []
        preds_host = None
        labels_host = None
        for inputs in self.get_eval_dataloader():
            loss, logits, labels = self.prediction_step(model, inputs)
            losses_host.append(loss.repeat(labels.size(0)))  # ok
            preds_host = logits if preds_host is None else torch.cat((preds_host, logits), dim=0)  # ok
            labels_host = labels if labels_host is None else torch.cat((labels_host, labels), dim=0)
        eval_loss = torch.cat(losses_host).mean().item()
        acc = (preds_host.argmax(-1) == labels_host).float().mean().item()
        metrics = {"eval_loss": eval_loss, "eval_accuracy": acc}
        self.log_history.append(metrics)
        return metrics

    def train(self):
        args = self.args
        model = self.model
        tr_loss = torch.tensor(0.0)
        logging_loss_scalar = 0.0
        for epoch in range(args.num_train_epochs):
            for step, inputs in enumerate(self.get_train_dataloader()):
                tr_loss_step = self.training_step(model, inputs)
                tr_loss += tr_loss_step  # ok
                if (step + 1) % args.gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                    self.global_step += 1
                    if self.global_step % args.logging_steps == 0:
                        tr_loss_scalar = tr_loss.item()
                        logs = {"loss": (tr_loss_scalar - logging_loss_scalar) / args.logging_steps,
                                "epoch": epoch}
                        logging_loss_scalar = tr_loss_scalar
                        self.log_history.append(logs)
                        print(logs)
            if self.eval_dataset is not None:
                print(self.evaluate())
        return tr_loss.item() / max(self.global_step, 1)


class AuxLossTrainer(Trainer):
    """Adds a hidden-state norm penalty and keeps the per-step values for a report."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._aux_history = []

    def compute_loss(self, model, inputs, return_outputs=False):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logits = outputs["logits"]
        ce = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))
        aux = outputs["hidden_states"].pow(2).mean()
        if model.training:
            self._aux_history.append(aux)  # expect: TEN501
        loss = ce + self.args.aux_loss_weight * aux
        return (loss, outputs) if return_outputs else loss

    def aux_report(self):
        if not self._aux_history:
            return 0.0
        return float(sum(a.item() for a in self._aux_history) / len(self._aux_history))


def make_split(n, seq=6, vocab=50, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, vocab, (n, seq), generator=g)
    mask = torch.ones(n, seq)
    labels = torch.randint(0, 3, (n, seq), generator=g)
    return ids, mask, labels


def main():
    torch.manual_seed(0)
    args = TrainingArguments()
    trainer = Trainer(TinyTokenClassifier(), args, make_split(32), make_split(16, seed=1))
    print("avg loss", trainer.train())
    aux_trainer = AuxLossTrainer(TinyTokenClassifier(), args, make_split(32), make_split(16, seed=1))
    aux_trainer.train()
    print("aux", aux_trainer.aux_report())


if __name__ == "__main__":
    main()
