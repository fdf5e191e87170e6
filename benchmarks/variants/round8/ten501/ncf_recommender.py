"""Neural Collaborative Filtering (NeuMF) on MovieLens-1M with leave-one-out evaluation."""
import argparse
import time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, gmf_dim=32, mlp_layers=(128, 64, 32)):
        super().__init__()
        self.user_gmf = nn.Embedding(n_users, gmf_dim)
        self.item_gmf = nn.Embedding(n_items, gmf_dim)
        self.user_mlp = nn.Embedding(n_users, mlp_layers[0] // 2)
        self.item_mlp = nn.Embedding(n_items, mlp_layers[0] // 2)
        layers = []
        for a, b in zip(mlp_layers[:-1], mlp_layers[1:]):
            layers += [nn.Linear(a, b), nn.ReLU(), nn.Dropout(0.1)]
        self.mlp = nn.Sequential(*layers)
        self.out = nn.Linear(gmf_dim + mlp_layers[-1], 1)
        for emb in (self.user_gmf, self.item_gmf, self.user_mlp, self.item_mlp):
            nn.init.normal_(emb.weight, std=0.01)

    def forward(self, users, items):
        gmf = self.user_gmf(users) * self.item_gmf(items)
        mlp = self.mlp(torch.cat([self.user_mlp(users), self.item_mlp(items)], dim=-1))
        return self.out(torch.cat([gmf, mlp], dim=-1)).squeeze(-1)


class PointwiseDataset(Dataset):
    def __init__(self, pos_pairs, n_items, user_pos, num_neg=4, seed=0):
        self.rng = np.random.default_rng(seed)
        self.pos = pos_pairs
        self.n_items = n_items
        self.user_pos = user_pos
        self.num_neg = num_neg
        self.resample()

    def resample(self):
        users, items, labels = [], [], []
        for u, i in self.pos:
            users.append(u); items.append(i); labels.append(1.0)
            for _ in range(self.num_neg):
                j = self.rng.integers(self.n_items)
                while j in self.user_pos[u]:
                    j = self.rng.integers(self.n_items)
                users.append(u); items.append(j); labels.append(0.0)
        self.users = torch.tensor(users)
        self.items = torch.tensor(items)
        self.labels = torch.tensor(labels)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.users[idx], self.items[idx], self.labels[idx]


def train_epoch(model, loader, optimizer, device, emb_reg=0.0):
    model.train()
    epoch_loss = torch.zeros((), device=device)
    for users, items, labels in loader:
        users, items, labels = users.to(device), items.to(device), labels.to(device)
        logits = model(users, items)
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        if emb_reg > 0:
            loss = loss + emb_reg * (model.user_gmf(users).pow(2).sum() + model.item_gmf(items).pow(2).sum()) / users.size(0)  # ok
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.detach()  # ok
    return epoch_loss.item() / len(loader)


def evaluate(model, test_users, test_items, top_k, device, users_per_chunk=512):
    """test_users/test_items: (n_users * 100,), column 0 of each row of 100 is the held-out positive."""
    model.eval()
    all_scores = torch.empty(0, device=device)
    chunk = users_per_chunk * 100
    for u, i in zip(test_users.split(chunk), test_items.split(chunk)):
        scores = model(u.to(device), i.to(device))
        all_scores = torch.cat((all_scores, scores))  # expect: TEN501
    all_scores = all_scores.view(-1, 100)
    _, ranked = torch.topk(all_scores, top_k, dim=1)
    hit_at = (ranked == 0).float()
    hr = hit_at.sum(dim=1).mean().item()
    discounts = 1.0 / torch.log2(torch.arange(2, top_k + 2, device=device).float())
    ndcg = (hit_at * discounts).sum(dim=1).mean().item()
    return hr, ndcg


def load_ml1m(path, n_test_neg=99, seed=0):
    df = pd.read_csv(path, sep="::", engine="python", names=["user", "item", "rating", "ts"])
    df["user"] = df["user"].astype("category").cat.codes
    df["item"] = df["item"].astype("category").cat.codes
    df = df.sort_values(["user", "ts"])
    test = df.groupby("user").tail(1)
    train = df.drop(test.index)
    n_users, n_items = df["user"].nunique(), df["item"].nunique()
    user_pos = df.groupby("user")["item"].apply(set).to_dict()
    rng = np.random.default_rng(seed)
    tu, ti = [], []
    for u, i in zip(test["user"], test["item"]):
        negs = []
        while len(negs) < n_test_neg:
            j = int(rng.integers(n_items))
            if j not in user_pos[u]:
                negs.append(j)
        tu += [u] * (n_test_neg + 1)
        ti += [i] + negs
    return (list(zip(train["user"], train["item"])), n_users, n_items, user_pos,
            torch.tensor(tu), torch.tensor(ti))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ratings", default="ml-1m/ratings.dat")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--top-k", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    train_pairs, n_users, n_items, user_pos, test_u, test_i = load_ml1m(args.ratings)
    ds = PointwiseDataset(train_pairs, n_items, user_pos)
    model = NeuMF(n_users, n_items).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    best_hr, hr_history = 0.0, []
    for epoch in range(args.epochs):
        tic = time.time()
        ds.resample()
        loader = DataLoader(ds, batch_size=256, shuffle=True, num_workers=2)
        loss = train_epoch(model, loader, optimizer, device, emb_reg=1e-6)
        hr, ndcg = evaluate(model, test_u, test_i, args.top_k, device)
        hr_history.append(hr)  # ok
        print(f"epoch {epoch:02d} [{time.time() - tic:.1f}s] loss {loss:.4f} HR@{args.top_k} {hr:.4f} NDCG {ndcg:.4f}")
        if hr > best_hr:
            best_hr = hr
            torch.save(model.state_dict(), "neumf_best.pt")


if __name__ == "__main__":
    main()
