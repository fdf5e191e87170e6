"""GRU encoder-decoder with teacher forcing and attention weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Seq2Seq(nn.Module):
    def __init__(self, vocab=12, hid=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, hid)
        self.enc = nn.GRU(hid, hid, batch_first=True)
        self.dec = nn.GRUCell(hid, hid)
        self.out = nn.Linear(2 * hid, vocab)

    def forward(self, src, tgt):
        enc_out, h = self.enc(self.emb(src))
        h = h[0]
        step_logits, attns = [], []
        for t in range(tgt.size(1)):
            h = self.dec(self.emb(tgt[:, t]), h)
            attn = torch.softmax((enc_out @ h.unsqueeze(-1)).squeeze(-1), dim=-1)
            ctx = (attn.unsqueeze(-1) * enc_out).sum(1)
            step_logits.append(self.out(torch.cat([h, ctx], -1)))  # ok
            attns.append(attn)  # ok
        return torch.stack(step_logits, 1), torch.stack(attns, 1)


torch.manual_seed(0)
model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
all_preds, pred_tokens, attn_maps = [], [], []
for batch in range(3):
    src = torch.randint(0, 12, (2, 5))
    tgt = torch.randint(0, 12, (2, 4))
    outputs, attn = model(src, tgt)
    loss = F.cross_entropy(outputs.reshape(-1, 12), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    all_preds.append(outputs)  # expect: TEN501
    pred_tokens.append(outputs.argmax(-1))  # ok
    attn_maps.append(attn)  # expect: TEN501
print(len(all_preds), pred_tokens[0].shape, attn_maps[-1].shape)
