"""Batching utilities for next-item prediction (SASRec / GRU4Rec style)."""
import torch


def shift_right(seq: torch.Tensor, pad_id: int = 0) -> torch.Tensor:
    """Return `seq` shifted one position to the right, left-padded with `pad_id`."""
    out = torch.full_like(seq, pad_id)
    out[:, 1:] = seq[:, :-1]  # ok
    return out


class SessionBatcher:
    """Turns padded item-id sequences into (input, target, mask) triples."""

    def __init__(self, pad_id: int = 0, max_len: int = 50):
        self.pad_id = pad_id
        self.max_len = max_len

    def truncate(self, item_seq: torch.Tensor) -> torch.Tensor:
        return item_seq[:, -self.max_len:]

    def make_inputs(self, item_seq: torch.Tensor):
        """item_seq: (B, L) int64 right-aligned sessions from the collate fn."""
        item_seq = self.truncate(item_seq)
        targets = item_seq.clone()
        item_seq[:, 1:] = item_seq[:, :-1]  # expect: TEN403
        item_seq[:, 0] = self.pad_id
        mask = targets != self.pad_id
        return item_seq, targets, mask

    def collate(self, sessions):
        batch = torch.full((len(sessions), self.max_len), self.pad_id, dtype=torch.long)
        for i, s in enumerate(sessions):
            s = torch.as_tensor(s[-self.max_len:], dtype=torch.long)
            batch[i, -len(s):] = s
        return self.make_inputs(batch)
