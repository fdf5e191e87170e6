# coding: utf-8
# Word-level LSTM language model (PTB / WikiText-2) with truncated BPTT.
import argparse
import math
import time

import torch
import torch.nn as nn

import data   # corpus/dictionary helpers
import model as lm

parser = argparse.ArgumentParser(description="RNN/LSTM language model")
parser.add_argument("--data", type=str, default="./data/wikitext-2")
parser.add_argument("--emsize", type=int, default=650)
parser.add_argument("--nhid", type=int, default=650)
parser.add_argument("--nlayers", type=int, default=2)
parser.add_argument("--lr", type=float, default=20)
parser.add_argument("--clip", type=float, default=0.25)
parser.add_argument("--epochs", type=int, default=40)
parser.add_argument("--batch_size", type=int, default=20)
parser.add_argument("--bptt", type=int, default=35)
parser.add_argument("--log-interval", type=int, default=200)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
corpus = data.Corpus(args.data)


def batchify(d, bsz):
    nbatch = d.size(0) // bsz
    d = d.narrow(0, 0, nbatch * bsz)
    return d.view(bsz, -1).t().contiguous().to(device)


train_data = batchify(corpus.train, args.batch_size)
val_data = batchify(corpus.valid, 10)
ntokens = len(corpus.dictionary)
model = lm.RNNModel("LSTM", ntokens, args.emsize, args.nhid, args.nlayers, 0.5).to(device)
criterion = nn.NLLLoss()


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(args.bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)


def evaluate(data_source):
    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(10)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args.bptt):
            inp, targets = get_batch(data_source, i)
            output, hidden = model(inp, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(inp) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train(lr, epoch):
    model.train()
    total_loss = 0.
    start_time = time.time()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        inp, targets = get_batch(train_data, i)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(inp, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)

        total_loss += loss.data
        if batch % args.log_interval == 0 and batch > 0:
            cur_loss = total_loss / args.log_interval
            elapsed = time.time() - start_time
            print("| epoch {:3d} | {:5d} batches | lr {:02.2f} | ms/batch {:5.2f} | loss {:5.2f} | ppl {:8.2f}"
                  .format(epoch, batch, lr, elapsed * 1000 / args.log_interval, cur_loss, math.exp(cur_loss)))
            total_loss = 0
            start_time = time.time()


lr, best_val_loss = args.lr, None
for epoch in range(1, args.epochs + 1):
    train(lr, epoch)
    val_loss = evaluate(val_data)
    print("| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}".format(epoch, val_loss, math.exp(val_loss)))
    if best_val_loss is None or val_loss < best_val_loss:
        with open("model.pt", "wb") as f:
            torch.save(model, f)
        best_val_loss = val_loss
    else:
        lr /= 4.0
