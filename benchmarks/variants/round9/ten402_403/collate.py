"""Batch collation for causal-LM and seq2seq fine-tuning."""
from dataclasses import dataclass

import torch

IGNORE_INDEX = -100


def pad_sequences(seqs, pad_value):
    longest = max(s.size(0) for s in seqs)
    out = seqs[0].new_full((len(seqs), longest), pad_value)
    for i, s in enumerate(seqs):
        out[i, : s.size(0)] = s
    return out


def next_token_labels(input_ids, attention_mask):
    """Labels for a model that does not shift internally: position t predicts token t+1."""
    labels = input_ids.masked_fill(attention_mask == 0, IGNORE_INDEX)
    tail = labels.new_full((labels.size(0), 1), IGNORE_INDEX)
    return torch.cat([labels[:, 1:], tail], dim=1)  # ok


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1]  # ok
    shifted[:, 0] = decoder_start_token_id
    shifted.masked_fill_(shifted == IGNORE_INDEX, pad_token_id)
    return shifted


@dataclass
class CausalLMCollator:
    pad_token_id: int
    shift_labels: bool = True

    def __call__(self, examples):
        ids = pad_sequences([torch.as_tensor(e["input_ids"]) for e in examples], self.pad_token_id)
        lengths = torch.tensor([len(e["input_ids"]) for e in examples])
        attention_mask = (torch.arange(ids.size(1))[None, :] < lengths[:, None]).long()
        labels = ids.clone()
        labels[attention_mask == 0] = IGNORE_INDEX
        if self.shift_labels:
            labels[:, :-1] = labels[:, 1:]  # expect: TEN403
            labels[:, -1] = IGNORE_INDEX
        return {"input_ids": ids, "attention_mask": attention_mask, "labels": labels}


@dataclass
class Seq2SeqCollator:
    pad_token_id: int
    decoder_start_token_id: int

    def __call__(self, examples):
        src = pad_sequences([torch.as_tensor(e["source_ids"]) for e in examples], self.pad_token_id)
        tgt = pad_sequences([torch.as_tensor(e["target_ids"]) for e in examples], IGNORE_INDEX)
        dec_in = tgt.clone()
        dec_mask = (tgt != IGNORE_INDEX).long()
        dec_in[:, 1:], dec_mask[:, 1:] = dec_in[:, :-1], dec_mask[:, :-1]  # expect: TEN403
        dec_in[:, 0] = self.decoder_start_token_id
        dec_mask[:, 0] = 1
        dec_in[dec_in == IGNORE_INDEX] = self.pad_token_id
        return {
            "input_ids": src,
            "attention_mask": (src != self.pad_token_id).long(),
            "decoder_input_ids": dec_in,
            "decoder_attention_mask": dec_mask,
            "labels": tgt,
        }
