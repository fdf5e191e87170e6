import torch
import torch.nn as nn

torch.manual_seed(0)


def converged(curr, prev, tol=1e-3):
    delta = max((curr[k] - prev[k]).abs().max().item() for k in curr)
    return delta < tol, delta


model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
X, Y = torch.randn(60, 3), torch.randn(60, 2)
prev_state = None
for epoch in range(50):
    opt.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    opt.step()
    if prev_state is not None:
        done, delta = converged(model.state_dict(), prev_state)
        mom = opt.state[model.weight]["momentum_buffer"]
        mom_change = (mom - prev_mom).norm().item()
        print(f"epoch {epoch} max delta {delta:.6f} momentum change {mom_change:.6f}")
        if done:
            print("converged at", epoch)
            break
    prev_state = model.state_dict().copy()  # expect: TEN402
    prev_mom = opt.state[model.weight]["momentum_buffer"]  # expect: TEN402
