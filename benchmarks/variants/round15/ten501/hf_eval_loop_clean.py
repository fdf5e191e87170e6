"""Evaluation loop in the style of transformers' evaluation_loop (prediction_step detaches)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def nested_concat(tensors, new_tensors, padding_index=-100):
    if tensors is None:
        return new_tensors
    return torch.cat((tensors, new_tensors), dim=0)


class EvalMixin:
    def prediction_step(self, model, inputs):
        labels = inputs["labels"]
        logits = model(inputs["x"])
        loss = F.cross_entropy(logits, labels)
        return loss.detach(), logits.detach(), labels

    def evaluation_loop(self, model, batches):
        model.eval()
        losses_host, preds_host, labels_host = None, None, None
        all_losses = []
        observed = 0
        for inputs in batches:
            loss, logits, labels = self.prediction_step(model, inputs)
            bs = labels.shape[0]
            observed += bs  # ok
            losses_host = nested_concat(losses_host, loss.repeat(bs))  # ok
            preds_host = nested_concat(preds_host, logits)  # ok
            labels_host = nested_concat(labels_host, labels)  # ok
            all_losses.append(loss.cpu().numpy())  # ok
        preds = preds_host.argmax(-1)
        return {"eval_loss": float(np.mean(all_losses)), "eval_acc": (preds == labels_host).float().mean().item(),
                "n": observed}


class TrainerLite(EvalMixin):
    def __init__(self, model):
        self.model = model
        self.metrics_history = []

    def train_and_eval(self, train_batches, eval_batches, epochs=2):
        opt = torch.optim.AdamW(self.model.parameters(), lr=1e-2)
        for _ in range(epochs):
            self.model.train()
            for inputs in train_batches:
                loss = F.cross_entropy(self.model(inputs["x"]), inputs["labels"])
                opt.zero_grad()
                loss.backward()
                opt.step()
            self.metrics_history.append(self.evaluation_loop(self.model, eval_batches))  # ok
        return self.metrics_history


if __name__ == "__main__":
    torch.manual_seed(0)
    make = lambda: {"x": torch.randn(6, 5), "labels": torch.randint(0, 2, (6,))}
    trainer = TrainerLite(nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)))
    print(trainer.train_and_eval([make() for _ in range(3)], [make() for _ in range(4)]))
