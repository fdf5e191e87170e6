import argparse

import torch
import torch.nn as nn
import torchaudio

from speech_ctc.metrics import AverageMeter, char_vocab, encode_transcripts, greedy_decode, word_error_rate


class ConvBiLSTM(nn.Module):
    def __init__(self, n_mels=80, hidden=320, layers=4, vocab_size=29):
        super().__init__()
        self.subsample = nn.Sequential(
            nn.Conv2d(1, 32, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.GELU(),
        )
        self.rnn = nn.LSTM(32 * ((n_mels + 3) // 4), hidden, num_layers=layers,
                           bidirectional=True, batch_first=True, dropout=0.1)
        self.fc = nn.Linear(2 * hidden, vocab_size)

    def forward(self, feats, lengths):
        # feats: (N, T, n_mels)
        x = self.subsample(feats.unsqueeze(1))
        n, c, t, f = x.shape
        x = x.permute(0, 2, 1, 3).reshape(n, t, c * f)
        x, _ = self.rnn(x)
        out_lens = ((lengths + 1) // 2 + 1) // 2
        return self.fc(x).log_softmax(dim=-1), out_lens.clamp(max=t)


class LibriCollate:
    def __init__(self, stoi, n_mels=80):
        self.stoi = stoi
        self.melspec = torchaudio.transforms.MelSpectrogram(sample_rate=16000, n_fft=400, hop_length=160, n_mels=n_mels)

    def __call__(self, batch):
        feats = [self.melspec(wav).squeeze(0).clamp(min=1e-10).log().t() for wav, *_ in batch]
        transcripts = [item[2] for item in batch]
        feat_lens = torch.tensor([f.size(0) for f in feats])
        feats = nn.utils.rnn.pad_sequence(feats, batch_first=True)
        targets, target_lens = encode_transcripts(transcripts, self.stoi)
        return feats, feat_lens, targets, target_lens, [t.lower() for t in transcripts]


def train_epoch(model, loader, optimizer, scheduler, ctc, vocab, device, epoch, log_every=50):
    model.train()
    loss_meter = AverageMeter("loss")
    wer_meter = AverageMeter("wer")
    for step, (feats, feat_lens, targets, target_lens, transcripts) in enumerate(loader):
        feats, feat_lens = feats.to(device), feat_lens.to(device)
        targets, target_lens = targets.to(device), target_lens.to(device)

        log_probs, out_lens = model(feats, feat_lens)
        loss = ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)

        optimizer.zero_grad()
        loss.backward()
        grad_norm = nn.utils.clip_grad_norm_(model.parameters(), 400.0)
        optimizer.step()
        scheduler.step()

        loss_meter.update(loss, feats.size(0))  # expect: TEN501
        hyps = greedy_decode(log_probs, out_lens, vocab)
        wer_meter.update(word_error_rate(hyps, transcripts), feats.size(0))  # ok
        if step % log_every == 0:
            print(f"epoch {epoch} step {step} {loss_meter} {wer_meter} grad_norm {grad_norm:.2f}")
    return float(loss_meter.avg), wer_meter.avg


def validate(model, loader, ctc, vocab, device):
    model.eval()
    loss_meter, wer_meter = AverageMeter("val_loss"), AverageMeter("val_wer")
    with torch.no_grad():
        for feats, feat_lens, targets, target_lens, transcripts in loader:
            feats, feat_lens = feats.to(device), feat_lens.to(device)
            log_probs, out_lens = model(feats, feat_lens)
            loss = ctc(log_probs.transpose(0, 1), targets.to(device), out_lens, target_lens.to(device))
            loss_meter.update(loss, feats.size(0))  # ok
            hyps = greedy_decode(log_probs, out_lens, vocab)
            wer_meter.update(word_error_rate(hyps, transcripts), feats.size(0))  # ok
    return float(loss_meter.avg), wer_meter.avg


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="./LibriSpeech")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--bs", type=int, default=16)
    args = parser.parse_args()

    device = torch.device("cuda")
    vocab, stoi = char_vocab()
    collate = LibriCollate(stoi)
    train_ds = torchaudio.datasets.LIBRISPEECH(args.root, url="train-clean-100", download=True)
    dev_ds = torchaudio.datasets.LIBRISPEECH(args.root, url="dev-clean", download=True)
    train_dl = torch.utils.data.DataLoader(train_ds, batch_size=args.bs, shuffle=True, collate_fn=collate, num_workers=8)
    dev_dl = torch.utils.data.DataLoader(dev_ds, batch_size=args.bs, collate_fn=collate, num_workers=8)

    model = ConvBiLSTM(vocab_size=len(vocab)).to(device)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=5e-4, total_steps=args.epochs * len(train_dl))

    for epoch in range(args.epochs):
        tr_loss, tr_wer = train_epoch(model, train_dl, optimizer, scheduler, ctc, vocab, device, epoch)
        va_loss, va_wer = validate(model, dev_dl, ctc, vocab, device)
        print(f"epoch {epoch}: train {tr_loss:.3f}/{tr_wer:.3f}  dev {va_loss:.3f}/{va_wer:.3f}")
        torch.save({"model": model.state_dict(), "epoch": epoch}, f"ctc_epoch{epoch}.pt")


if __name__ == "__main__":
    main()
