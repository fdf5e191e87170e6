"""Training loop for a mask-based speech enhancement model (CRN / DCCRN style)."""
import os
import time
from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader


@dataclass
class TrainConfig:
    device: str = "cuda"
    batch_size: int = 16
    lr: float = 1e-3
    epochs: int = 100
    patience: int = 10
    n_fft: int = 512
    hop: int = 128
    out_dir: str = "exp/crn"


def si_sdr(est, ref, eps=1e-8):
    ref = ref - ref.mean(dim=-1, keepdim=True)
    est = est - est.mean(dim=-1, keepdim=True)
    scale = (est * ref).sum(-1, keepdim=True) / (ref.pow(2).sum(-1, keepdim=True) + eps)
    target = scale * ref
    noise = est - target
    return 10 * torch.log10(target.pow(2).sum(-1) / (noise.pow(2).sum(-1) + eps) + eps)


class EnhancementTrainer:
    def __init__(self, model, train_set, valid_set, cfg: TrainConfig):
        self.cfg = cfg
        self.model = model.to(cfg.device)
        self.train_loader = DataLoader(
            train_set, batch_size=cfg.batch_size, shuffle=True, num_workers=4, drop_last=True
        )
        self.valid_loader = DataLoader(valid_set, batch_size=1)
        self.optim = torch.optim.AdamW(self.model.parameters(), lr=cfg.lr, weight_decay=1e-4)
        self.sched = torch.optim.lr_scheduler.ReduceLROnPlateau(self.optim, factor=0.5, patience=3)
        self.window = torch.hann_window(cfg.n_fft, device=cfg.device)
        self.best_sisdr = -float("inf")
        self.best_weights = None
        self.epochs_since_best = 0
        os.makedirs(cfg.out_dir, exist_ok=True)

    def _stft(self, wav):
        return torch.stft(wav, self.cfg.n_fft, self.cfg.hop, window=self.window, return_complex=True)

    def _istft(self, spec, length):
        return torch.istft(spec, self.cfg.n_fft, self.cfg.hop, window=self.window, length=length)

    def enhance(self, noisy):
        spec = self._stft(noisy)
        mask = self.model(spec.abs())
        return self._istft(spec * mask, noisy.shape[-1])

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for noisy, clean in self.train_loader:
            noisy = noisy.to(self.cfg.device, non_blocking=True)
            clean = clean.to(self.cfg.device, non_blocking=True)
            est = self.enhance(noisy)
            loss = -si_sdr(est, clean).mean()
            self.optim.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
            self.optim.step()
            total += loss.item()
        return total / len(self.train_loader)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        scores = []
        for noisy, clean in self.valid_loader:
            noisy, clean = noisy.to(self.cfg.device), clean.to(self.cfg.device)
            scores.append(si_sdr(self.enhance(noisy), clean).mean().item())
        return sum(scores) / max(len(scores), 1)

    def fit(self):
        for epoch in range(1, self.cfg.epochs + 1):
            t0 = time.time()
            train_loss = self.train_epoch()
            score = self.validate()
            self.sched.step(-score)
            print(f"epoch {epoch:3d} | loss {train_loss:.3f} | val SI-SDR {score:.2f} dB | {time.time() - t0:.0f}s")
            if score > self.best_sisdr:
                self.best_sisdr = score
                self.best_weights = self.model.state_dict()  # expect: TEN402
                self.epochs_since_best = 0
                torch.save(self.model.state_dict(), os.path.join(self.cfg.out_dir, "best.pt"))  # ok
            else:
                self.epochs_since_best += 1
                if self.epochs_since_best >= self.cfg.patience:
                    print(f"no improvement for {self.cfg.patience} epochs, stopping")
                    break
        if self.best_weights is not None:
            self.model.load_state_dict(self.best_weights)
        return self.model
