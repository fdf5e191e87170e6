"""Seq2seq GRU translation training (tutorial-style)."""
import math
import random
import time

import torch
import torch.nn as nn

SOS_token = 0
teacher_forcing_ratio = 0.5


def train_epoch(dataloader, encoder, decoder, enc_opt, dec_opt, criterion):
    total_loss = 0
    for input_tensor, target_tensor in dataloader:
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_outputs, _, _ = decoder(encoder_outputs, encoder_hidden, target_tensor)
        loss = criterion(decoder_outputs.view(-1, decoder_outputs.size(-1)), target_tensor.view(-1))
        loss.backward()
        enc_opt.step()
        dec_opt.step()
        total_loss += loss.item()  # ok
    return total_loss / len(dataloader)


def train_stepwise(pairs, encoder, decoder, enc_opt, dec_opt, criterion, max_length=10):
    """Older per-token decoding loop with random teacher forcing."""
    step_losses = []
    perplexities = []
    for input_tensor, target_tensor in pairs:
        enc_opt.zero_grad()
        dec_opt.zero_grad()
        encoder_outputs, encoder_hidden = encoder(input_tensor)
        decoder_input = torch.tensor([[SOS_token]])
        decoder_hidden = encoder_hidden
        target_length = target_tensor.size(0)
        use_tf = random.random() < teacher_forcing_ratio
        loss = 0
        for di in range(min(target_length, max_length)):
            decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
            loss += criterion(decoder_output, target_tensor[di])  # ok
            if use_tf:
                decoder_input = target_tensor[di]
            else:
                decoder_input = decoder_output.topk(1)[1].squeeze().detach()
        loss.backward()
        enc_opt.step()
        dec_opt.step()
        step_losses += [loss]  # expect: TEN501
        perplexities += [math.exp(loss.item() / target_length)]  # ok
    return step_losses, perplexities


def train(train_dataloader, encoder, decoder, n_epochs, learning_rate=0.001, print_every=5):
    start = time.time()
    plot_losses = []
    print_loss_total = 0
    enc_opt = torch.optim.Adam(encoder.parameters(), lr=learning_rate)
    dec_opt = torch.optim.Adam(decoder.parameters(), lr=learning_rate)
    criterion = nn.NLLLoss()
    for epoch in range(1, n_epochs + 1):
        loss = train_epoch(train_dataloader, encoder, decoder, enc_opt, dec_opt, criterion)
        print_loss_total += loss  # ok
        plot_losses.append(loss)  # ok
        if epoch % print_every == 0:
            print(f"{time.time() - start:.0f}s epoch {epoch} avg loss {print_loss_total / print_every:.4f}")
            print_loss_total = 0
    return plot_losses
