"""Correct bookkeeping in a standard loop: nothing here keeps a graph alive."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    model = nn.Linear(12, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    accum_steps = 4
    running = 0.0
    running_det = torch.zeros(())
    losses_np = []
    floats = []
    n_seen = 0
    n_pos = 0
    acc = 0.0
    for step in range(16):
        x, y = torch.randn(8, 12), torch.randn(8, 1)
        pred = model(x)
        loss = F.smooth_l1_loss(pred, y)
        acc = acc + loss / accum_steps  # ok
        if step % accum_steps == accum_steps - 1:
            opt.zero_grad()
            acc.backward()
            opt.step()
            acc = 0.0
        running += loss.item()  # ok
        running_det += loss.detach()  # ok
        losses_np.append(loss.detach().cpu().numpy())  # ok
        floats.append(float(loss))  # ok
        n_seen += x.size(0)  # ok
        n_pos += int((pred > 0).sum())  # ok
    print(running / 16, running_det / 16, len(losses_np), sum(floats), n_seen, n_pos)


if __name__ == "__main__":
    main()
