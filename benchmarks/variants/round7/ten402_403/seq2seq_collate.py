from dataclasses import dataclass
from typing import Dict, List

import torch


def shift_tokens_right(input_ids: torch.Tensor, pad_token_id: int, decoder_start_token_id: int) -> torch.Tensor:
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


@dataclass
class Seq2SeqCollator:
    pad_token_id: int
    decoder_start_token_id: int
    label_pad_id: int = -100
    max_source_len: int = 512
    max_target_len: int = 128

    def _pad(self, seqs: List[List[int]], value: int, max_len: int) -> torch.Tensor:
        L = min(max(len(s) for s in seqs), max_len)
        out = torch.full((len(seqs), L), value, dtype=torch.long)
        for i, s in enumerate(seqs):
            s = s[:L]
            out[i, : len(s)] = torch.tensor(s, dtype=torch.long)
        return out

    def __call__(self, features: List[Dict[str, List[int]]]) -> Dict[str, torch.Tensor]:
        input_ids = self._pad([f["input_ids"] for f in features], self.pad_token_id, self.max_source_len)
        labels = self._pad([f["labels"] for f in features], self.label_pad_id, self.max_target_len)
        dec = labels.clone()
        dec[:, 1:] = dec[:, :-1]  # expect: TEN403
        dec[:, 0] = self.decoder_start_token_id
        dec[dec == self.label_pad_id] = self.pad_token_id
        return {
            "input_ids": input_ids,
            "attention_mask": (input_ids != self.pad_token_id).long(),
            "labels": labels,
            "decoder_input_ids": dec,
        }


def causal_lm_labels(input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    labels = torch.full_like(input_ids, -100)
    labels[:, :-1] = input_ids[:, 1:]  # ok
    labels[:, :-1][attention_mask[:, 1:] == 0] = -100
    return labels
