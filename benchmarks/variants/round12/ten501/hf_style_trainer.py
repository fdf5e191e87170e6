"""A trimmed-down HF-style Trainer used for quick fine-tuning runs."""
from dataclasses import dataclass, field

import torch
from torch.utils.data import DataLoader


@dataclass
class TrainingArguments:
    per_device_train_batch_size: int = 16
    gradient_accumulation_steps: int = 1
    logging_steps: int = 50
    max_grad_norm: float = 1.0


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)


class MiniTrainer:
    def __init__(self, model, args, train_dataset, data_collator, optimizer, lr_scheduler):
        self.model = model
        self.args = args
        self.train_dataset = train_dataset
        self.data_collator = data_collator
        self.optimizer = optimizer
        self.lr_scheduler = lr_scheduler
        self.state = TrainerState()
        self._stored_logits = []
        self._stored_labels = []
        self._stored_preds = []

    def get_train_dataloader(self):
        return DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size,
                          shuffle=True, collate_fn=self.data_collator)

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs["loss"] if isinstance(outputs, dict) else outputs[0]
        return (loss, outputs) if return_outputs else loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        if self.args.gradient_accumulation_steps > 1:
            loss = loss / self.args.gradient_accumulation_steps
        loss.backward()
        return loss.detach()

    def _optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
        self.optimizer.step()
        self.lr_scheduler.step()
        self.model.zero_grad()
        self.state.global_step += 1

    def train(self):
        tr_loss = torch.tensor(0.0)
        logging_loss_scalar = 0.0
        accum = self.args.gradient_accumulation_steps
        for step, inputs in enumerate(self.get_train_dataloader()):
            tr_loss_step = self.training_step(self.model, inputs)
            tr_loss += tr_loss_step  # ok
            if (step + 1) % accum != 0:
                continue
            self._optimizer_step()
            if self.state.global_step % self.args.logging_steps == 0:
                tr_loss_scalar = tr_loss.item()
                logs = {"loss": (tr_loss_scalar - logging_loss_scalar) / self.args.logging_steps,
                        "learning_rate": self.lr_scheduler.get_last_lr()[0]}
                logging_loss_scalar = tr_loss_scalar
                self.state.log_history.append({**logs, "step": self.state.global_step})  # ok
        return tr_loss.item() / max(self.state.global_step, 1)

    def train_with_outputs(self):
        """Variant that keeps predictions around for a train-set metric at the end."""
        for inputs in self.get_train_dataloader():
            loss, outputs = self.compute_loss(self.model, inputs, return_outputs=True)
            loss.backward()
            self._optimizer_step()
            self.state.log_history.append({"loss": loss, "step": self.state.global_step})  # expect: TEN501
            self._stored_logits.append(outputs["logits"])  # expect: TEN501
            self._stored_labels.append(inputs["labels"])  # ok
            self._stored_preds.append(outputs["logits"].detach().argmax(-1))  # ok
        preds = torch.cat(self._stored_logits).argmax(-1)
        labels = torch.cat(self._stored_labels)
        return (preds == labels).float().mean().item()
