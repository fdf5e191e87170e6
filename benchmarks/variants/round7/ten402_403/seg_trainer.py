import copy
import time

import torch
import torch.nn.functional as F


class SegTrainer:
    def __init__(self, model, optimizer, scheduler, device, num_classes, ignore_index=255, amp=True):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.device = device
        self.num_classes = num_classes
        self.ignore_index = ignore_index
        self.amp = amp
        self.scaler = torch.cuda.amp.GradScaler(enabled=amp)
        self._init_state = copy.deepcopy(self.model.state_dict())  # ok
        self._best = None
        self.best_miou = -1.0
        self.history = []

    def reset(self):
        self.model.load_state_dict(self._init_state)
        self._best = None
        self.best_miou = -1.0

    def train_epoch(self, loader):
        self.model.train()
        running = 0.0
        for images, masks in loader:
            images = images.to(self.device, non_blocking=True)
            masks = masks.to(self.device, non_blocking=True).long()
            self.optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device_type="cuda", enabled=self.amp):
                logits = self.model(images)
                if logits.shape[-2:] != masks.shape[-2:]:
                    logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
                loss = F.cross_entropy(logits, masks, ignore_index=self.ignore_index)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            if self.scheduler is not None:
                self.scheduler.step()
            running += loss.item()
        return running / max(len(loader), 1)

    @torch.no_grad()
    def validate(self, loader):
        self.model.eval()
        k = self.num_classes
        conf = torch.zeros(k, k, dtype=torch.long, device=self.device)
        for images, masks in loader:
            images = images.to(self.device)
            masks = masks.to(self.device).long()
            logits = self.model(images)
            logits = F.interpolate(logits, size=masks.shape[-2:], mode="bilinear", align_corners=False)
            pred = logits.argmax(1)
            valid = masks != self.ignore_index
            conf += torch.bincount(masks[valid] * k + pred[valid], minlength=k * k).view(k, k)
        inter = conf.diag().float()
        union = conf.sum(0).float() + conf.sum(1).float() - inter
        iou = inter / union.clamp(min=1)
        return iou[union > 0].mean().item()

    def fit(self, train_loader, val_loader, epochs):
        for ep in range(epochs):
            t0 = time.time()
            loss = self.train_epoch(train_loader)
            miou = self.validate(val_loader)
            self.history.append({"epoch": ep, "loss": loss, "miou": miou, "time": time.time() - t0})
            print(f"[{ep:03d}] loss={loss:.4f} mIoU={miou:.4f} ({time.time() - t0:.0f}s)")
            if miou > self.best_miou:
                self.best_miou = miou
                self._best = self.model.state_dict().copy()  # expect: TEN402
        if self._best is not None:
            self.model.load_state_dict(self._best)
        return self.best_miou
