import torch
import torch.nn as nn

torch.manual_seed(0)


def evaluate(model, batches):
    model.eval()
    outs = []
    for xb in batches:
        outs.append(model(xb))  # expect: TEN501
    return torch.stack(outs).mean().item()


@torch.no_grad()
def evaluate_fixed(model, batches):
    model.eval()
    outs = []
    for xb in batches:
        outs.append(model(xb))  # ok
    return torch.stack(outs).mean().item()


def main():
    model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    val = [torch.randn(10, 3) for _ in range(6)]
    for epoch in range(3):
        model.train()
        for _ in range(4):
            x = torch.randn(10, 3)
            loss = (model(x) - x.sum(1, keepdim=True)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, round(evaluate(model, val), 5), round(evaluate_fixed(model, val), 5))


main()
