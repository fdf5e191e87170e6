"""An experiment-tracker `run` object (wandb-like API) keeping history and summary."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Run:
    def __init__(self, project):
        self.project = project
        self.history = []
        self.summary = {}
        self._step = 0

    def log(self, data, step=None):
        self._step = step if step is not None else self._step + 1
        row = {"_step": self._step}
        row.update(data)
        self.history.append(row)
        self.summary.update(data)

    def finish(self):
        keys = sorted({k for r in self.history for k in r})
        return {k: sum(1 for r in self.history if k in r) for k in keys}


def init(project):
    return Run(project)


model = nn.Sequential(nn.Embedding(20, 8), nn.Flatten(), nn.Linear(24, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
run = init("toy-tokens")
run_scalar = init("toy-tokens-scalar")
for step in range(10):
    tok = torch.randint(0, 20, (16, 3))
    y = (tok.sum(1) % 2)
    logits = model(tok)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    grad_norm = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
    opt.step()
    acc = (logits.argmax(1) == y).float().mean()
    run.log({"train/loss": loss, "train/acc": acc}, step=step)  # expect: TEN501
    run_scalar.log({"train/loss": loss.item(), "train/acc": acc.item(), "grad_norm": grad_norm.item()}, step=step)  # ok
    if step % 2 == 0:
        run.log({"emb_norm": model[0].weight.norm()})  # expect: TEN501
        run_scalar.log({"grad_norm": grad_norm})  # ok
print(run.finish(), round(run_scalar.summary["train/loss"], 4))
