"""State dicts that are never read after their own module changes."""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


def distill(teacher, student, x, epochs=3):
    teacher_sd = teacher.state_dict()  # ok
    teacher.eval()
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    for _ in range(epochs):
        with torch.no_grad():
            t = teacher(x)
        opt.zero_grad()
        F.mse_loss(student(x), t).backward()
        opt.step()
    buf = io.BytesIO()
    torch.save({"teacher": teacher_sd, "student": student.state_dict()}, buf)  # ok
    return buf


def inference_then_save(model, batches):
    sd = model.state_dict()  # ok
    model.eval()
    outs = []
    with torch.no_grad():
        for x in batches:
            outs.append(model(x))
    torch.save(sd, io.BytesIO())
    return outs


def rebound_to_clones(model, x, y):
    state = model.state_dict()
    state = {k: v.clone() for k, v in state.items()}  # ok
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
    model.load_state_dict(state)


def keys_only(model, other, x, y):
    init = model.state_dict()  # ok
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    opt.zero_grad()
    F.mse_loss(model(x), y).backward()
    opt.step()
    return sorted(set(init) - set(other.state_dict()))


def scheduler_only(model):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
    snap = model.state_dict()  # ok
    for _ in range(3):
        sched.step()
    model.load_state_dict(snap)


def save_every_epoch(model, x, y, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    blobs = []
    for epoch in range(epochs):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()
        ckpt = {"epoch": epoch, "model": model.state_dict(), "optim": opt.state_dict()}  # ok
        buf = io.BytesIO()
        torch.save(ckpt, buf)
        blobs.append(buf.getvalue())
    return blobs


if __name__ == "__main__":
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    t, s = nn.Linear(4, 1), nn.Linear(4, 1)
    distill(t, s, x)
    inference_then_save(t, [x])
    rebound_to_clones(s, x, y)
    keys_only(s, t, x, y)
    save_every_epoch(s, x, y)
    import warnings
    warnings.simplefilter("ignore")
    scheduler_only(s)
