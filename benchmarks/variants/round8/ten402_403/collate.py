"""Batching utilities for the seq2seq translation model."""
import torch
from torch.nn.utils.rnn import pad_sequence


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1]  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == -100, pad_token_id)
    return shifted


def lm_labels(input_ids, pad_id):
    labels = torch.full_like(input_ids, -100)
    labels[:, :-1] = input_ids[:, 1:]  # ok
    labels[labels == pad_id] = -100
    return labels


class Seq2SeqCollator:
    def __init__(self, pad_id, bos_id, max_len=256):
        self.pad_id = pad_id
        self.bos_id = bos_id
        self.max_len = max_len

    def __call__(self, batch):
        src = pad_sequence([b["src"][: self.max_len] for b in batch], batch_first=True, padding_value=self.pad_id)
        tgt = pad_sequence([b["tgt"][: self.max_len] for b in batch], batch_first=True, padding_value=self.pad_id)
        prev_output_tokens = tgt.clone()
        prev_output_tokens[:, 1:] = prev_output_tokens[:, :-1]  # expect: TEN403
        prev_output_tokens[:, 0] = self.bos_id
        labels = tgt.masked_fill(tgt == self.pad_id, -100)
        return {
            "input_ids": src,
            "attention_mask": src.ne(self.pad_id),
            "decoder_input_ids": prev_output_tokens,
            "decoder_attention_mask": prev_output_tokens.ne(self.pad_id),
            "labels": labels,
        }


def paired_position_ids(batch_size, device="cpu"):
    pos = torch.zeros(batch_size, 64, dtype=torch.long, device=device)
    pos[:, 0:32] = torch.arange(32, device=device)
    pos[:, 32:64] = pos[:, 0:32]  # ok
    return pos
