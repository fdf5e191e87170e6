"""GRU seq2seq with additive attention; teacher forcing; attention maps kept for visualisation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

V, H, T = 10, 16, 5


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.enc = nn.GRU(H, H, batch_first=True)
        self.dec = nn.GRUCell(H, H)
        self.attn = nn.Linear(2 * H, 1)
        self.out = nn.Linear(2 * H, V)

    def forward(self, src, tgt):
        enc_out, h = self.enc(self.emb(src))
        h = h[0]
        step_logits, step_attn = [], []
        inp = self.emb(tgt[:, 0])
        for t in range(T):
            h = self.dec(inp, h)
            scores = self.attn(torch.cat([enc_out, h[:, None].expand_as(enc_out)], -1)).squeeze(-1)
            w = F.softmax(scores, -1)
            ctx = (w[..., None] * enc_out).sum(1)
            step_logits.append(self.out(torch.cat([h, ctx], -1)))  # ok
            step_attn.append(w)  # ok
            inp = self.emb(tgt[:, t])
        return torch.stack(step_logits, 1), torch.stack(step_attn, 1)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    attention_maps, attn_cpu, bleu_like, losses = [], [], [], []
    for it in range(4):
        src = torch.randint(0, V, (4, T))
        tgt = src.flip(1)
        logits, attn = model(src, tgt)
        loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        attention_maps.append(attn[0])  # expect: TEN501
        attn_cpu.append(attn[0].detach().cpu().tolist())  # ok
        bleu_like.append((logits.argmax(-1) == tgt).float().mean())  # ok
        losses.append(loss)  # expect: TEN501
    print(len(attention_maps), float(attention_maps[-1].sum()), len(attn_cpu), float(sum(bleu_like)), float(sum(losses)))


if __name__ == "__main__":
    main()
