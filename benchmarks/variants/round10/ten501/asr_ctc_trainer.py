"""CTC fine-tuning loop for a small conformer acoustic model."""
import logging
import math

import editdistance
import torch
import torch.nn as nn

logger = logging.getLogger(__name__)


class GreedyCTCDecoder:
    def __init__(self, labels, blank=0):
        self.labels = labels
        self.blank = blank

    def decode(self, best_paths, lengths):
        out = []
        for path, n in zip(best_paths.tolist(), lengths.tolist()):
            prev = None
            chars = []
            for idx in path[:n]:
                if idx != prev and idx != self.blank:
                    chars.append(self.labels[idx])
                prev = idx
            out.append("".join(chars))
        return out


class CTCTrainer:
    def __init__(self, model, optimizer, scheduler, decoder, device="cuda", blank=0,
                 ema_decay=0.98, log_interval=50):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.decoder = decoder
        self.device = device
        self.ctc = nn.CTCLoss(blank=blank, zero_infinity=True)
        self.ema_decay = ema_decay
        self.smoothed_loss = None
        self.log_interval = log_interval
        self.global_step = 0

    def _word_errors(self, hyps, refs):
        errs, words = 0, 0
        for h, r in zip(hyps, refs):
            errs += editdistance.eval(h.split(), r.split())
            words += len(r.split())
        return errs, words

    def fit_epoch(self, loader):
        self.model.train()
        best_paths = []
        frame_count = 0
        errs, words = 0, 0
        for feats, feat_lens, targets, target_lens, transcripts in loader:
            feats = feats.to(self.device)
            feat_lens = feat_lens.to(self.device)
            log_probs, out_lens = self.model(feats, feat_lens)  # (B, T, V)
            loss = self.ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)

            self.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 5.0)
            self.optimizer.step()
            self.scheduler.step()
            self.global_step += 1

            if self.smoothed_loss is None:
                self.smoothed_loss = loss.item()  # ok
            else:
                self.smoothed_loss = self.ema_decay * self.smoothed_loss + (1 - self.ema_decay) * loss  # expect: TEN501

            greedy = log_probs.argmax(dim=-1)
            best_paths.append(greedy.cpu())  # ok
            frame_count += out_lens.sum()  # ok
            hyps = self.decoder.decode(greedy, out_lens)
            e, w = self._word_errors(hyps, transcripts)
            errs += e
            words += w

            if self.global_step % self.log_interval == 0:
                logger.info("step %d loss %.3f wer %.3f lr %.2e", self.global_step,
                            float(self.smoothed_loss), errs / max(words, 1),
                            self.scheduler.get_last_lr()[0])

        return {"wer": errs / max(words, 1), "frames": int(frame_count),
                "loss": float(self.smoothed_loss) if self.smoothed_loss is not None else math.nan}

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        errs, words, total = 0, 0, 0.0
        for feats, feat_lens, targets, target_lens, transcripts in loader:
            log_probs, out_lens = self.model(feats.to(self.device), feat_lens.to(self.device))
            total += self.ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens).item()
            hyps = self.decoder.decode(log_probs.argmax(-1), out_lens)
            e, w = self._word_errors(hyps, transcripts)
            errs += e
            words += w
        self.model.train()
        return {"wer": errs / max(words, 1), "loss": total / max(len(loader), 1)}
