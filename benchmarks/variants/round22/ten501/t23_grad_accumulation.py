"""Gradient accumulation over micro-batches, two flavours."""
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Embedding(20, 8), nn.Flatten(), nn.Linear(8 * 5, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
ACCUM = 3


def micro_batches(n):
    for _ in range(n):
        ids = torch.randint(0, 20, (4, 5))
        mask = (ids > 2).float()
        y = mask.sum(1, keepdim=True) / 5
        yield ids, mask, y


def flavour_backward_each(n_micro=9):
    """backward() on every micro-batch, optimizer step every ACCUM micro-batches."""
    epoch_loss = 0.0
    accum_loss = 0.0
    accum_loss_det = torch.zeros(())
    n_tokens = torch.zeros(())
    logged = []
    for i, (ids, mask, y) in enumerate(micro_batches(n_micro)):
        loss = nn.functional.mse_loss(model(ids), y) / ACCUM
        loss.backward()
        epoch_loss += loss  # expect: TEN501
        accum_loss += loss  # either: TEN501
        accum_loss_det += loss.detach()  # ok
        n_tokens += mask.sum()  # ok
        if (i + 1) % ACCUM == 0:
            opt.step()
            opt.zero_grad()
            logged.append(accum_loss_det.item())  # ok
            accum_loss = 0.0
            accum_loss_det = torch.zeros(())
    return epoch_loss, logged, n_tokens


def flavour_single_backward(n_steps=3):
    """Micro-batch losses are summed first and backpropagated once per step."""
    step_log = []
    for step in range(n_steps):
        step_loss = 0.0
        micro_losses = []
        for ids, mask, y in micro_batches(ACCUM):
            mb_loss = nn.functional.mse_loss(model(ids), y)
            step_loss = step_loss + mb_loss / ACCUM  # ok
            micro_losses.append(mb_loss)  # ok
        opt.zero_grad()
        step_loss.backward()
        opt.step()
        step_log.append(step_loss)  # expect: TEN501
        spread = torch.stack(micro_losses).detach().std()
        print("step", step, round(spread.item(), 4))
    return step_log


if __name__ == "__main__":
    el, logged, tok = flavour_backward_each()
    sl = flavour_single_backward()
    print(round(float(el.detach()), 4), [round(v, 4) for v in logged], int(tok), len(sl))
