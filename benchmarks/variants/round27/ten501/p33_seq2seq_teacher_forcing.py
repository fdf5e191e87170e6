"""GRU seq2seq with teacher forcing; per-token loss summed inside a batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)

V, H, T = 12, 16, 5
emb = nn.Embedding(V, 8)
encoder = nn.GRU(8, H, batch_first=True)
decoder = nn.GRUCell(8, H)
out_proj = nn.Linear(H, V)
params = [p for m in (emb, encoder, decoder, out_proj) for p in m.parameters()]
opt = torch.optim.Adam(params, lr=5e-3)
criterion = nn.CrossEntropyLoss()

epoch_loss = 0
epoch_loss_ok = 0.0
for batch_idx in range(6):
    src = torch.randint(1, V, (4, T))
    trg = src.flip(1)
    _, h = encoder(emb(src))
    h = h[0]
    inp = torch.zeros(4, dtype=torch.long)
    seq_loss = 0
    for t in range(T):
        h = decoder(emb(inp), h)
        logits = out_proj(h)
        seq_loss = seq_loss + criterion(logits, trg[:, t])  # ok
        inp = trg[:, t]
    opt.zero_grad()
    seq_loss.backward()
    opt.step()
    epoch_loss += seq_loss / T  # expect: TEN501
    epoch_loss_ok += seq_loss.item() / T  # ok
print("epoch loss", round(epoch_loss.item() / 6, 4), round(epoch_loss_ok / 6, 4))
