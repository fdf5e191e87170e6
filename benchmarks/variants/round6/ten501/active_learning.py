"""Pool-based active learning: train, score the unlabeled pool by predictive
entropy (and MC-dropout BALD), move the top-k to the labeled set, repeat."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d_in=6, n_cls=3, p=0.3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Dropout(p), nn.Linear(32, n_cls))

    def forward(self, x):
        return self.net(x)


def fit(model, x, y, epochs=20, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for i in range(0, len(x), 16):
            loss = F.cross_entropy(model(x[i:i + 16]), y[i:i + 16])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def score_pool(model, pool_x, batch_size=32):
    model.eval()
    scores = []
    for i in range(0, len(pool_x), batch_size):
        probs = F.softmax(model(pool_x[i:i + batch_size]), dim=1)
        entropy = -(probs * probs.clamp_min(1e-12).log()).sum(1)
        scores.append(entropy)  # expect: TEN501
    return torch.cat(scores)


def bald_scores(model, pool_x, n_samples=5):
    model.train()
    with torch.inference_mode():
        samples = []
        for _ in range(n_samples):
            samples.append(F.softmax(model(pool_x), dim=1))  # ok
        probs = torch.stack(samples)
    mean = probs.mean(0)
    h_mean = -(mean * mean.clamp_min(1e-12).log()).sum(-1)
    mean_h = -(probs * probs.clamp_min(1e-12).log()).sum(-1).mean(0)
    return h_mean - mean_h


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def main(rounds=4, query_size=10):
    torch.manual_seed(0)
    w = torch.randn(6, 3)
    pool_x = torch.randn(300, 6)
    pool_y = (pool_x @ w).argmax(1)
    test_x = torch.randn(100, 6)
    test_y = (test_x @ w).argmax(1)
    labeled = torch.zeros(len(pool_x), dtype=torch.bool)
    labeled[torch.randperm(len(pool_x))[:20]] = True

    acc_per_round = []
    queried_scores = []
    for rnd in range(rounds):
        model = fit(MLP(), pool_x[labeled], pool_y[labeled])
        acc_per_round.append(accuracy(model, test_x, test_y))
        unl_idx = (~labeled).nonzero().squeeze(1)
        ent = score_pool(model, pool_x[unl_idx])
        bald = bald_scores(model, pool_x[unl_idx])
        combined = ent.detach() + bald
        top = combined.topk(query_size).indices
        queried_scores.append(combined[top])  # ok
        labeled[unl_idx[top]] = True
        print(f"round {rnd}: labeled={int(labeled.sum())} acc={acc_per_round[-1]:.3f} "
              f"max_entropy={ent.max().item():.3f}")


if __name__ == "__main__":
    main()
