"""Language-model style RNN loops where the hidden state crosses batch boundaries."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

V, H, T, B = 20, 16, 6, 4
tokens = torch.randint(0, V, (B, 10 * T + 1))


class LM(nn.Module):
    def __init__(self, cell="gru"):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.GRU(H, H, batch_first=True) if cell == "gru" else nn.LSTM(H, H, batch_first=True)
        self.out = nn.Linear(H, V)

    def forward(self, x, state):
        y, state = self.rnn(self.emb(x), state)
        return self.out(y), state


def batches():
    for i in range(0, 10 * T, T):
        yield tokens[:, i:i + T], tokens[:, i + 1:i + 1 + T]


# 1) truncated BPTT done right: detach between batches
model = LM()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
hidden = None
tbptt_losses = []
for x, y in batches():
    logits, hidden = model(x, hidden)
    hidden = hidden.detach()  # ok
    loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    tbptt_losses.append(loss.item())  # ok

# 2) gradient-norm probe over the stream: backward each chunk, hidden never detached,
#    the "Trying to backward through the graph a second time" error silenced with retain_graph
model2 = LM()
h2 = None
grad_norms = []
for x, y in batches():
    logits, h2 = model2(x, h2)  # expect: TEN501
    loss2 = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
    model2.zero_grad()
    loss2.backward(retain_graph=True)
    gn = torch.nn.utils.clip_grad_norm_(model2.parameters(), 1e9)
    grad_norms.append(gn)  # ok
    tbptt_losses.append(float(loss2))  # ok

# 3) streaming inference (no backward at all) that forgets no_grad; LSTM state
lstm_model = LM("lstm")
lstm_model.eval()
state = None
state_ok = None
stream_scores = []
for x, _ in batches():
    logits, (h, c) = lstm_model(x, state)
    state = (h, c.detach())  # expect: TEN501
    stream_scores.append(logits.softmax(-1).max(-1).values.mean())  # expect: TEN501
    with torch.no_grad():
        _, state_ok = lstm_model(x, state_ok)  # ok

print("tbptt", round(tbptt_losses[0], 4), round(tbptt_losses[9], 4), "retain", round(tbptt_losses[-1], 4))
print("grad norms", [round(float(g), 3) for g in grad_norms[:4]])
print("stream", round(float(torch.stack(stream_scores).mean()), 5), state[0].requires_grad, state_ok[0].requires_grad)
