"""In-memory checkpoint manager for 'resume from epoch k' experiments."""
import io

import torch
from torch import nn

torch.manual_seed(0)


class MemoryCheckpoints:
    def __init__(self):
        self.ckpts = {}
        self.blobs = {}

    def save(self, epoch, model, opt, sched):
        self.ckpts[epoch] = {"model": model.state_dict(), "optim": opt.state_dict(),  # expect: TEN402
                             "sched": sched.state_dict()}
        buf = io.BytesIO()
        torch.save({"model": model.state_dict(), "optim": opt.state_dict()}, buf)  # ok
        self.blobs[epoch] = buf.getvalue()

    def load(self, epoch, model, opt, sched):
        ck = self.ckpts[epoch]
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optim"])
        sched.load_state_dict(ck["sched"])

    def load_blob(self, epoch, model, opt):
        ck = torch.load(io.BytesIO(self.blobs[epoch]), weights_only=True)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optim"])


def train_epoch(model, opt, sched, x, y):
    for i in range(0, len(x), 16):
        opt.zero_grad()
        nn.functional.binary_cross_entropy_with_logits(model(x[i:i + 16]), y[i:i + 16]).backward()
        opt.step()
    sched.step()


x = torch.randn(64, 9)
y = (x.sum(1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(9, 9), nn.ReLU(), nn.Linear(9, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
mgr = MemoryCheckpoints()
for epoch in range(6):
    train_epoch(model, opt, sched, x, y)
    mgr.save(epoch, model, opt, sched)


def summary(tag):
    mom = opt.state_dict()["state"][0]["momentum_buffer"]  # ok
    print(f"{tag:<22} w00 {model[0].weight[0, 0].item():+.5f}  mom00 {mom[0, 0].item():+.5f}  "
          f"lr {opt.param_groups[0]['lr']:.4f}")


summary("after 6 epochs")
mgr.load(2, model, opt, sched)
summary("resumed (dict) @2")
train_epoch(model, opt, sched, x, y)
summary("one more epoch")
mgr.load_blob(2, model, opt)
summary("resumed (bytes) @2")
