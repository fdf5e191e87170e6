"""Causal LM / seq2seq label preparation: shifting inputs and labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
PAD, BOS, V = 0, 1, 20


def shift_tokens_right(input_ids, start_id=BOS):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()  # ok
    shifted[:, 0] = start_id  # ok
    return shifted


def make_lm_labels_inplace(labels):
    labels[:, :-1] = labels[:, 1:]  # expect: TEN403
    labels[:, -1] = -100  # ok
    return labels


def make_lm_labels(input_ids):
    labels = torch.full_like(input_ids, -100)
    labels[:, :-1] = input_ids[:, 1:]  # ok
    return labels


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, ids):
        return self.out(self.rnn(self.emb(ids))[0])


if __name__ == "__main__":
    ids = torch.randint(2, V, (4, 7))
    dec_in = shift_tokens_right(ids)
    a, b = make_lm_labels_inplace(ids.clone()), make_lm_labels(ids)
    print("labels equal:", torch.equal(a, b))
    lm = TinyLM()
    logits = lm(ids)
    loss = F.cross_entropy(logits.reshape(-1, V), b.reshape(-1), ignore_index=-100)
    loss.backward()
    print("loss", loss.item(), dec_in[0].tolist())
