import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader
from torchvision import transforms


class MomentumContrast(nn.Module):
    def __init__(self, dim=128, queue_size=65536, momentum=0.999, temperature=0.2):
        super().__init__()
        self.queue_size = queue_size
        self.momentum = momentum
        self.temperature = temperature

        def make_encoder():
            net = torchvision.models.resnet50(num_classes=dim)
            hidden = net.fc.weight.shape[1]
            net.fc = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), net.fc)
            return net

        self.query_enc = make_encoder()
        self.key_enc = make_encoder()
        for q_p, k_p in zip(self.query_enc.parameters(), self.key_enc.parameters()):
            k_p.data.copy_(q_p.data)
            k_p.requires_grad = False

        self.register_buffer("queue", F.normalize(torch.randn(dim, queue_size), dim=0))

    @torch.no_grad()
    def _momentum_update(self):
        for q_p, k_p in zip(self.query_enc.parameters(), self.key_enc.parameters()):
            k_p.mul_(self.momentum).add_(q_p.detach(), alpha=1.0 - self.momentum)

    @torch.no_grad()
    def _enqueue(self, keys):
        self.queue = torch.cat((keys.t(), self.queue), dim=1)[:, : self.queue_size]  # ok

    def forward(self, im_q, im_k):
        q = F.normalize(self.query_enc(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.key_enc(im_k), dim=1)

        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.temperature
        labels = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)
        self._enqueue(k)  # ok
        return logits, labels


def adjust_lr(optimizer, base_lr, epoch, epochs):
    lr = base_lr * 0.5 * (1.0 + math.cos(math.pi * epoch / epochs))
    for group in optimizer.param_groups:
        group["lr"] = lr
    return lr


def main(data_dir="/datasets/imagenet/train", epochs=200, batch_size=256, base_lr=0.03):
    device = torch.device("cuda")
    aug = transforms.Compose([
        transforms.RandomResizedCrop(224, scale=(0.2, 1.0)),
        transforms.RandomApply([transforms.ColorJitter(0.4, 0.4, 0.4, 0.1)], p=0.8),
        transforms.RandomGrayscale(p=0.2),
        transforms.RandomApply([transforms.GaussianBlur(23, sigma=(0.1, 2.0))], p=0.5),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
    ])
    dataset = torchvision.datasets.ImageFolder(data_dir, transform=lambda img: (aug(img), aug(img)))
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=16, pin_memory=True, drop_last=True)

    model = MomentumContrast().to(device)
    optimizer = torch.optim.SGD(model.query_enc.parameters(), lr=base_lr, momentum=0.9, weight_decay=1e-4)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(epochs):
        lr = adjust_lr(optimizer, base_lr, epoch, epochs)
        model.train()
        pos_sim_hist = []
        acc_sum, n_steps = 0.0, 0
        for step, ((im_q, im_k), _) in enumerate(loader):
            im_q = im_q.to(device, non_blocking=True)
            im_k = im_k.to(device, non_blocking=True)
            logits, labels = model(im_q, im_k)
            loss = criterion(logits, labels)

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            pos_sim_hist.append(logits[:, 0].mean() * model.temperature)  # expect: TEN501
            acc_sum += (logits.argmax(dim=1) == labels).float().mean()  # ok
            n_steps += 1
            if step % 100 == 0:
                print(f"ep {epoch} it {step} loss {loss.item():.4f} lr {lr:.4f} "
                      f"pos_sim {pos_sim_hist[-1].item():.3f} inst_acc {float(acc_sum) / n_steps:.3f}")
        mean_pos = torch.stack(pos_sim_hist).mean().item()
        print(f"epoch {epoch}: mean positive cosine {mean_pos:.4f}")
        torch.save({"epoch": epoch, "state_dict": model.state_dict()}, f"moco_ep{epoch:03d}.pth")


if __name__ == "__main__":
    main()
