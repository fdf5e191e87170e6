"""Pool-based active learning with entropy acquisition."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_pool(n=300, dim=6):
    x = torch.randn(n, dim)
    y = ((x[:, 0] * x[:, 1] > 0).long() + (x[:, 2] > 1).long()).clamp(max=2)
    return x, y


def score_pool(model, pool_x, batch=64):
    """Predictive entropy for every unlabeled point."""
    model.eval()
    scores = []
    for i in range(0, pool_x.size(0), batch):
        probs = F.softmax(model(pool_x[i:i + batch]), dim=-1)
        ent = -(probs * probs.clamp_min(1e-8).log()).sum(-1)
        scores.append(ent)  # expect: TEN501
    model.train()
    return torch.cat(scores)


@torch.inference_mode()
def accuracy(model, x, y):
    model.eval()
    acc = (model(x).argmax(-1) == y).float().mean().item()
    model.train()
    return acc


def fit(model, x, y, steps=15):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main(rounds=4, query=20):
    torch.manual_seed(0)
    x, y = make_pool()
    x_test, y_test = make_pool(100)
    labeled_idx = torch.randperm(len(x))[:20].tolist()
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
    round_scores, history, pool_size_log = [], [], []
    for r in range(rounds):
        final_loss = fit(model, x[labeled_idx], y[labeled_idx])
        unlabeled = torch.tensor(sorted(set(range(len(x))) - set(labeled_idx)))
        scores = score_pool(model, x[unlabeled])
        top = scores.topk(query)
        labeled_idx += unlabeled[top.indices].tolist()  # ok
        round_scores.append(scores.max())  # expect: TEN501
        pool_size_log.append(len(unlabeled))  # ok
        history.append({"round": r, "loss": final_loss, "acc": accuracy(model, x_test, y_test)})  # ok
        print(history[-1], "max entropy", round(round_scores[-1].item(), 4))
    print("pool sizes", pool_size_log)


if __name__ == "__main__":
    main()
