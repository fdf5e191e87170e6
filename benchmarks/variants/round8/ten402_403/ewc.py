"""Elastic Weight Consolidation on permuted MNIST."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class MLP(nn.Module):
    def __init__(self, hidden=400):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, 10)

    def forward(self, x):
        x = x.view(x.size(0), -1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class EWC:
    def __init__(self, model, dataset, device):
        self.model = model
        self.dataset = dataset
        self.device = device
        self.params = {n: p for n, p in self.model.named_parameters() if p.requires_grad}  # ok
        self._means = {n: p.data for n, p in self.params.items()}  # expect: TEN402
        self._precision_matrices = self._diag_fisher()

    def _diag_fisher(self):
        precision_matrices = {n: p.detach().clone().zero_() for n, p in self.params.items()}  # ok
        self.model.eval()
        for x in self.dataset:
            self.model.zero_grad()
            x = x.to(self.device).unsqueeze(0)
            output = self.model(x).view(1, -1)
            label = output.max(1)[1].view(-1)
            loss = F.nll_loss(F.log_softmax(output, dim=1), label)
            loss.backward()
            for n, p in self.model.named_parameters():
                if p.grad is not None:
                    precision_matrices[n] += p.grad.detach() ** 2 / len(self.dataset)
        return precision_matrices

    def penalty(self, model):
        loss = 0.0
        for n, p in model.named_parameters():
            if n in self._means:
                loss = loss + (self._precision_matrices[n] * (p - self._means[n]) ** 2).sum()
        return loss


def permuted_loaders(perm, batch_size):
    tf = transforms.Compose([
        transforms.ToTensor(),
        transforms.Lambda(lambda x: x.view(-1)[perm].view(1, 28, 28)),
    ])
    train = datasets.MNIST("data", train=True, download=True, transform=tf)
    test = datasets.MNIST("data", train=False, download=True, transform=tf)
    return train, DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(test, batch_size=1000)


def normal_train(model, optimizer, loader, device):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def ewc_train(model, optimizer, loader, ewcs, importance, device):
    model.train()
    total = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        for ewc in ewcs:
            loss = loss + importance * ewc.penalty(model)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


@torch.no_grad()
def test(model, loader, device):
    model.eval()
    correct = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
    return correct / len(loader.dataset)


def main(num_tasks=3, epochs=5, importance=1000.0, sample_size=200, lr=1e-3, device="cuda"):
    torch.manual_seed(0)
    np.random.seed(0)
    model = MLP().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    perms = [np.arange(784)] + [np.random.permutation(784) for _ in range(num_tasks - 1)]
    tasks = [permuted_loaders(torch.as_tensor(p), 128) for p in perms]
    ewcs = []
    for task_id, (train_set, train_loader, _) in enumerate(tasks):
        for epoch in range(epochs):
            if task_id == 0:
                loss = normal_train(model, optimizer, train_loader, device)
            else:
                loss = ewc_train(model, optimizer, train_loader, ewcs, importance, device)
            print(f"task {task_id} epoch {epoch} loss {loss:.4f}")
        accs = [test(model, tasks[t][2], device) for t in range(task_id + 1)]
        print(f"after task {task_id}: " + " ".join(f"{a:.3f}" for a in accs))
        sample = [train_set[i][0] for i in random.sample(range(len(train_set)), sample_size)]
        ewcs.append(EWC(model, sample, device))


if __name__ == "__main__":
    main()
