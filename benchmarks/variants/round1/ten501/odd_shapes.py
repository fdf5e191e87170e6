"""Less common spellings of the same accumulation, and their fixed forms."""
import torch
import torch.nn as nn


def main():
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 1))
    opt = torch.optim.Adam(model.parameters())
    total = torch.zeros(())
    total_fixed = torch.zeros(())
    plain = 0.0
    plain2 = 0.0
    preds = torch.empty(0, 1)
    safe_preds = torch.empty(0, 1)
    for it in range(6):
        x, y = torch.randn(4, 5), torch.randn(4, 1)
        out = model(x)
        loss = nn.functional.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total.add_(loss)  # expect: TEN501
        total_fixed.add_(loss.detach())  # ok
        plain += loss.data  # ok
        plain2 = plain2 + torch.tensor(loss.item())  # ok
        preds = torch.cat((preds, out))  # expect: TEN501
        safe_preds = torch.cat((safe_preds, out.detach()))  # ok
    print(total, total_fixed, plain, plain2, preds.shape, safe_preds.shape)


if __name__ == "__main__":
    main()
