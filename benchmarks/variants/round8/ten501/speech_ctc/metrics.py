import torch


class AverageMeter:
    """Running average of a scalar, weighted by batch size."""

    def __init__(self, name):
        self.name = name
        self.reset()

    def reset(self):
        self.val = 0.0
        self.sum = 0.0
        self.count = 0
        self.avg = 0.0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __repr__(self):
        return f"{self.name}: {float(self.avg):.4f}"


def greedy_decode(log_probs, lengths, vocab, blank=0):
    """Collapse repeats and drop blanks from the framewise argmax path.

    log_probs: (N, T, C)
    """
    best = log_probs.argmax(dim=-1).cpu()
    results = []
    for seq, n in zip(best, lengths.tolist()):
        prev = blank
        chars = []
        for idx in seq[:n].tolist():
            if idx != prev and idx != blank:
                chars.append(vocab[idx])
            prev = idx
        results.append("".join(chars))
    return results


def _levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def word_error_rate(hyps, refs):
    errors, words = 0, 0
    for h, r in zip(hyps, refs):
        ref_words = r.split()
        errors += _levenshtein(h.split(), ref_words)
        words += len(ref_words)
    return errors / max(words, 1)


def char_vocab():
    chars = ["<blank>", " ", "'"] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    return chars, {c: i for i, c in enumerate(chars)}


def encode_transcripts(transcripts, stoi):
    seqs = [torch.tensor([stoi[c] for c in t.lower() if c in stoi], dtype=torch.long) for t in transcripts]
    lengths = torch.tensor([len(s) for s in seqs], dtype=torch.long)
    return torch.cat(seqs), lengths
