"""HF-Trainer-shaped loop: training_step() calls backward and returns the loss to the caller."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyLM(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids, labels=None):
        logits = self.head(self.emb(input_ids))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return {"loss": loss, "logits": logits}


class TrainerState:
    def __init__(self):
        self.log_history = []
        self.global_step = 0


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.state = TrainerState()

    def training_step(self, model, inputs):
        model.train()
        outputs = model(**inputs)
        loss = outputs["loss"] / self.args["grad_accum"]
        loss.backward()
        return loss.detach()

    def train(self, dataset):
        tr_loss = torch.tensor(0.0)
        logging_loss = 0.0
        for epoch in range(self.args["epochs"]):
            for step, inputs in enumerate(dataset):
                tr_loss_step = self.training_step(self.model, inputs)
                tr_loss += tr_loss_step  # ok
                grad_norm = nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.optimizer.step()
                self.optimizer.zero_grad()
                self.state.global_step += 1
                logs = {"loss": (tr_loss.item() - logging_loss) / 1, "grad_norm": grad_norm}
                self.state.log_history.append(logs)  # ok
                logging_loss = tr_loss.item()
        return tr_loss


class LegacyTrainer(Trainer):
    """Older fork that forgot the .detach() in training_step."""

    def training_step(self, model, inputs):
        outputs = model(**inputs)
        loss = outputs["loss"]
        loss.backward()
        return loss

    def train(self, dataset):
        tr_loss = 0.0
        step_logits = []
        for epoch in range(self.args["epochs"]):
            for step, inputs in enumerate(dataset):
                tr_loss += self.training_step(self.model, inputs)  # expect: TEN501
                self.optimizer.step()
                self.optimizer.zero_grad()
                with torch.no_grad():
                    step_logits.append(self.model(**inputs)["logits"][:, -1])  # ok
        return tr_loss


data = []
for _ in range(3):
    ids = torch.randint(0, 20, (4, 7))
    data.append({"input_ids": ids, "labels": ids})
print(float(Trainer(TinyLM(), {"epochs": 2, "grad_accum": 1}).train(data)))
print(float(LegacyTrainer(TinyLM(), {"epochs": 2, "grad_accum": 1}).train(data)))
