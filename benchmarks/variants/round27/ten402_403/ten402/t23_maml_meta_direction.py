import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Linear(2, 1)
meta_opt = torch.optim.Adam(net.parameters(), lr=0.05)


def task_batch(k):
    w = torch.tensor([[1.0 + 0.3 * k], [-1.0 + 0.1 * k]])
    x = torch.randn(20, 2)
    return x, x @ w


history = []
for it in range(8):
    meta_init = [p.detach() for p in net.parameters()]  # expect: TEN402
    meta_loss = 0.0
    for k in range(3):
        x, y = task_batch(k)
        fast = list(net.parameters())
        for _ in range(2):
            loss = ((x @ fast[0].t() + fast[1] - y) ** 2).mean()
            grads = torch.autograd.grad(loss, fast, create_graph=True)
            fast = [w - 0.1 * g for w, g in zip(fast, grads)]
        meta_loss = meta_loss + ((x @ fast[0].t() + fast[1] - y) ** 2).mean()
    meta_opt.zero_grad()
    meta_loss.backward()
    meta_opt.step()
    step_size = sum((p.detach() - p0).norm() ** 2 for p, p0 in zip(net.parameters(), meta_init)).sqrt()
    history.append(step_size.item())
    print(f"iter {it} meta loss {meta_loss.item():.5f} meta step {step_size.item():.6f}")
print("mean meta step %.6f" % (sum(history) / len(history)))
