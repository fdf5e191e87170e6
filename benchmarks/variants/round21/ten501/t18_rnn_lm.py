"""word_language_model-style LSTM LM with truncated BPTT and hidden state carried across batches."""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=16, nhid=32, nlayers=1, dropout=0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=0.0)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers, self.nhid, self.ntoken = nlayers, nhid, ntoken

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.ntoken)
        return torch.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    return data[:nbatch * bsz].view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt=10):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


ntokens = 20
corpus = torch.tensor([(i * 7 + (i // 5)) % ntokens for i in range(2400)])
train_data = batchify(corpus[:2000], 8)
val_data = batchify(corpus[2000:], 4)
model = RNNModel(ntokens)
criterion = nn.NLLLoss()
lr = 5.0
bptt = 10


def evaluate(data_source):
    # Turn on evaluation mode which disables dropout.
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(4)
    for i in range(0, data_source.size(0) - 1, bptt):
        data, targets = get_batch(data_source, i, bptt)
        output, hidden = model(data, hidden)  # expect: TEN501
        total_loss += len(data) * criterion(output, targets)  # expect: TEN501
    return total_loss / (len(data_source) - 1)


@torch.no_grad()
def generate(n_words=12):
    model.eval()
    hidden = model.init_hidden(1)
    input = torch.randint(ntokens, (1, 1))
    words = []
    for _ in range(n_words):
        output, hidden = model(input, hidden)  # ok
        word_idx = torch.multinomial(output.squeeze().div(0.8).exp(), 1)[0]
        input.fill_(word_idx)
        words.append(word_idx.item())
    return words


def train(epoch):
    model.train()
    total_loss = 0.0
    hidden = model.init_hidden(8)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        hidden = repackage_hidden(hidden)  # ok
        model.zero_grad()
        output, hidden = model(data, hidden)  # either
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)  # ok
        total_loss += loss.item()  # ok
    return total_loss / (batch + 1)


val_losses = []
best_val_loss = None
for epoch in range(1, 4):
    train_loss = train(epoch)
    val_loss = evaluate(val_data)
    val_losses.append(val_loss)  # expect: TEN501
    if not best_val_loss or val_loss.item() < best_val_loss:
        best_val_loss = val_loss.item()
    print(f"| end of epoch {epoch} | train loss {train_loss:5.2f} | valid loss {val_loss.item():5.2f} | "
          f"valid ppl {math.exp(val_loss.item()):8.2f}")

print("generated:", generate())
print("val trend:", [round(v.item(), 3) for v in val_losses], "best:", round(best_val_loss, 3))
