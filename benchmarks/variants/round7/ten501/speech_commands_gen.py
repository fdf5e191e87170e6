import os

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchaudio
from torch.utils.data import DataLoader
from torchaudio.datasets import SPEECHCOMMANDS


class SubsetSC(SPEECHCOMMANDS):
    def __init__(self, subset, root="./data"):
        super().__init__(root, download=True)

        def load_list(filename):
            filepath = os.path.join(self._path, filename)
            with open(filepath) as fileobj:
                return [os.path.normpath(os.path.join(self._path, line.strip())) for line in fileobj]

        if subset == "validation":
            self._walker = load_list("validation_list.txt")
        elif subset == "testing":
            self._walker = load_list("testing_list.txt")
        elif subset == "training":
            excludes = set(load_list("validation_list.txt") + load_list("testing_list.txt"))
            self._walker = [w for w in self._walker if w not in excludes]


class M5(nn.Module):
    def __init__(self, n_input=1, n_output=35, stride=16, n_channel=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_input, n_channel, kernel_size=80, stride=stride)
        self.bn1 = nn.BatchNorm1d(n_channel)
        self.pool1 = nn.MaxPool1d(4)
        self.conv2 = nn.Conv1d(n_channel, n_channel, kernel_size=3)
        self.bn2 = nn.BatchNorm1d(n_channel)
        self.pool2 = nn.MaxPool1d(4)
        self.conv3 = nn.Conv1d(n_channel, 2 * n_channel, kernel_size=3)
        self.bn3 = nn.BatchNorm1d(2 * n_channel)
        self.pool3 = nn.MaxPool1d(4)
        self.fc1 = nn.Linear(2 * n_channel, n_output)

    def forward(self, x):
        x = self.pool1(F.relu(self.bn1(self.conv1(x))))
        x = self.pool2(F.relu(self.bn2(self.conv2(x))))
        x = self.pool3(F.relu(self.bn3(self.conv3(x))))
        x = F.avg_pool1d(x, x.shape[-1]).permute(0, 2, 1)
        return F.log_softmax(self.fc1(x), dim=2).squeeze(1)


def iterate_train(model, loader, optimizer, transform, device):
    model.train()
    for data, target in loader:
        data = transform(data.to(device))
        target = target.to(device)
        output = model(data)
        loss = F.nll_loss(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        yield loss, output, target


@torch.no_grad()
def iterate_eval(model, loader, transform, device):
    model.eval()
    for data, target in loader:
        data = transform(data.to(device))
        output = model(data)
        yield output, target.to(device)


def run(model, train_loader, test_loader, transform, device, n_epoch=2, log_interval=50):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.1)
    train_curve = []
    for epoch in range(1, n_epoch + 1):
        n_correct = 0
        for i, (loss, output, target) in enumerate(iterate_train(model, train_loader, optimizer, transform, device)):
            train_curve.append(loss)  # expect: TEN501
            n_correct += output.argmax(dim=-1).eq(target).sum().item()  # ok
            if i % log_interval == 0:
                print(f"Train Epoch: {epoch} [{i * len(target)}/{len(train_loader.dataset)}]\tLoss: {loss.item():.6f}")
        scheduler.step()

        test_outputs, test_targets = [], []
        for output, target in iterate_eval(model, test_loader, transform, device):
            test_outputs.append(output)  # ok
            test_targets.append(target)  # ok
        pred = torch.cat(test_outputs).argmax(dim=-1)
        acc = pred.eq(torch.cat(test_targets)).float().mean().item()
        print(f"Epoch {epoch}: train acc {n_correct / len(train_loader.dataset):.3f}, test acc {acc:.3f}")
    return train_curve


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_set = SubsetSC("training")
    test_set = SubsetSC("testing")
    labels = sorted(list(set(datapoint[2] for datapoint in test_set)))

    def pad_sequence(batch):
        batch = [item.t() for item in batch]
        batch = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=0.0)
        return batch.permute(0, 2, 1)

    def collate_fn(batch):
        tensors, targets = [], []
        for waveform, _, label, *_ in batch:
            tensors += [waveform]
            targets += [torch.tensor(labels.index(label))]
        return pad_sequence(tensors), torch.stack(targets)

    train_loader = DataLoader(train_set, batch_size=256, shuffle=True, collate_fn=collate_fn, num_workers=2)
    test_loader = DataLoader(test_set, batch_size=256, shuffle=False, collate_fn=collate_fn, num_workers=2)
    transform = torchaudio.transforms.Resample(orig_freq=16000, new_freq=8000).to(device)
    model = M5(n_output=len(labels)).to(device)
    curve = run(model, train_loader, test_loader, transform, device)
    torch.save(torch.stack(curve).detach().cpu(), "train_curve.pt")


if __name__ == "__main__":
    main()
