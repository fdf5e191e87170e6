"""Seq2seq with attention and teacher forcing; a translator caches encoder outputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, EMB, HID = 11, 8, 16


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)

    def forward(self, src):
        out, hidden = self.rnn(self.emb(src))
        return out, hidden[0]


class AttnDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB)
        self.cell = nn.GRUCell(EMB + HID, HID)
        self.out = nn.Linear(HID, VOCAB)
        self.last_attn = None

    def forward(self, y_prev, hidden, enc_out):
        scores = torch.bmm(enc_out, hidden.unsqueeze(2)).squeeze(2)
        attn = F.softmax(scores, dim=1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        hidden = self.cell(torch.cat([self.emb(y_prev), context], dim=1), hidden)
        self.last_attn = attn  # either
        return self.out(hidden), hidden, attn


class Translator:
    def __init__(self, encoder, decoder):
        self.encoder = encoder
        self.decoder = decoder
        self.encoder_cache = {}

    def encode(self, batch_id, src):
        enc_out, hidden = self.encoder(src)
        self.encoder_cache[batch_id] = enc_out  # expect: TEN501
        return enc_out, hidden


translator = Translator(Encoder(), AttnDecoder())
params = list(translator.encoder.parameters()) + list(translator.decoder.parameters())
opt = torch.optim.Adam(params, lr=1e-2)
batches = [(torch.randint(0, VOCAB, (3, 5)), torch.randint(0, VOCAB, (3, 4))) for _ in range(3)]

attention_maps = []
attention_maps_cpu = []
token_acc = []
for epoch in range(2):
    for batch_id, (src, tgt) in enumerate(batches):
        enc_out, hidden = translator.encode(batch_id, src)
        outputs = []
        y_prev = tgt[:, 0]
        for t in range(1, tgt.size(1)):
            logits_t, hidden, attn = translator.decoder(y_prev, hidden, enc_out)
            outputs.append(logits_t)  # ok
            y_prev = tgt[:, t]
        logits = torch.stack(outputs, dim=1)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        attention_maps.append(attn)  # expect: TEN501
        attention_maps_cpu.append(attn.detach().cpu())  # ok
        token_acc.append((logits.argmax(-1) == tgt[:, 1:]).float().mean().item())  # ok

print("token acc:", [round(a, 3) for a in token_acc], "cached batches:", len(translator.encoder_cache))
