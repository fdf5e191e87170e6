import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader
from torchvision.datasets import CIFAR10


class MoCo(nn.Module):
    def __init__(self, dim=128, K=4096, m=0.99, T=0.1):
        super().__init__()
        self.K, self.m, self.T = K, m, T
        backbone = torchvision.models.resnet18(num_classes=dim)
        backbone.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        backbone.maxpool = nn.Identity()
        self.encoder_q = backbone
        self.encoder_k = copy.deepcopy(backbone)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(dim, K), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        batch_size = keys.shape[0]
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + batch_size] = keys.T  # ok
        self.queue_ptr[0] = (ptr + batch_size) % self.K

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = torch.einsum("nc,nc->n", [q, k]).unsqueeze(-1)
        l_neg = torch.einsum("nc,ck->nk", [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1) / self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long, device=logits.device)
        loss = F.cross_entropy(logits, labels)
        self._dequeue_and_enqueue(k)
        return loss, q


class TwoCrops:
    def __init__(self, t):
        self.t = t

    def __call__(self, x):
        return self.t(x), self.t(x)


def knn_predict(feature, feature_bank, feature_labels, classes, knn_k=200, knn_t=0.1):
    sim_matrix = torch.mm(feature, feature_bank)
    sim_weight, sim_indices = sim_matrix.topk(k=knn_k, dim=-1)
    sim_labels = torch.gather(feature_labels.expand(feature.size(0), -1), dim=-1, index=sim_indices)
    sim_weight = (sim_weight / knn_t).exp()
    one_hot = torch.zeros(feature.size(0) * knn_k, classes, device=sim_labels.device)
    one_hot = one_hot.scatter(dim=-1, index=sim_labels.view(-1, 1), value=1.0)
    pred_scores = torch.sum(one_hot.view(feature.size(0), -1, classes) * sim_weight.unsqueeze(dim=-1), dim=1)
    return pred_scores.argsort(dim=-1, descending=True)


def knn_test(net, memory_loader, test_loader, classes, device):
    net.eval()
    total_top1, total_num, bank = 0.0, 0, []
    with torch.no_grad():
        for data, _ in memory_loader:
            feature = net(data.to(device, non_blocking=True))
            bank.append(F.normalize(feature, dim=1))  # ok
        feature_bank = torch.cat(bank, dim=0).t().contiguous()
        feature_labels = torch.tensor(memory_loader.dataset.targets, device=feature_bank.device)
        for data, target in test_loader:
            data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
            feature = F.normalize(net(data), dim=1)
            pred_labels = knn_predict(feature, feature_bank, feature_labels, classes)
            total_num += data.size(0)
            total_top1 += (pred_labels[:, 0] == target).float().sum().item()  # ok
    return total_top1 / total_num * 100


def train_epoch(model, loader, optimizer, device, epoch, args):
    model.train()
    total_loss, total_num = 0.0, 0
    online_bank = torch.empty(0, args.dim, device=device)
    for (im_1, im_2), _ in loader:
        im_1, im_2 = im_1.cuda(non_blocking=True), im_2.cuda(non_blocking=True)
        loss, q = model(im_1, im_2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        total_num += im_1.size(0)
        total_loss += loss.detach() * im_1.size(0)  # ok
        if args.track_uniformity:
            online_bank = torch.cat((online_bank, q), dim=0)  # expect: TEN501
    stats = {"loss": (total_loss / total_num).item()}
    if args.track_uniformity and online_bank.numel() > 0:
        sub = online_bank[torch.randperm(online_bank.size(0), device=device)[:4096]]
        stats["uniformity"] = torch.pdist(sub, p=2).pow(2).mul(-2).exp().mean().log().item()
    print(f"epoch {epoch}: {stats}")
    return stats


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--bs", type=int, default=512)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--track-uniformity", action="store_true")
    args = parser.parse_args()
    device = torch.device("cuda")

    aug = torchvision.transforms.Compose([
        torchvision.transforms.RandomResizedCrop(32),
        torchvision.transforms.RandomHorizontalFlip(),
        torchvision.transforms.RandomApply([torchvision.transforms.ColorJitter(0.4, 0.4, 0.4, 0.1)], p=0.8),
        torchvision.transforms.RandomGrayscale(p=0.2),
        torchvision.transforms.ToTensor(),
    ])
    plain = torchvision.transforms.ToTensor()
    train_data = CIFAR10("data", train=True, transform=TwoCrops(aug), download=True)
    memory_data = CIFAR10("data", train=True, transform=plain, download=True)
    test_data = CIFAR10("data", train=False, transform=plain, download=True)
    train_loader = DataLoader(train_data, batch_size=args.bs, shuffle=True, num_workers=8, drop_last=True)
    memory_loader = DataLoader(memory_data, batch_size=512, shuffle=False, num_workers=8)
    test_loader = DataLoader(test_data, batch_size=512, shuffle=False, num_workers=8)

    model = MoCo(dim=args.dim).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.06, weight_decay=5e-4, momentum=0.9)
    for epoch in range(args.epochs):
        train_epoch(model, train_loader, optimizer, device, epoch, args)
        if epoch % 10 == 0:
            acc = knn_test(model.encoder_q, memory_loader, test_loader, 10, device)
            print(f"knn acc {acc:.2f}")


if __name__ == "__main__":
    main()
