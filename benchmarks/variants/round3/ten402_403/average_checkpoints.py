#!/usr/bin/env python
"""Average the weights of the last N checkpoints (fairseq-style) and report how far each is from the mean."""
import argparse
import collections
import glob
import os
import re

import torch


def last_n_checkpoints(directory, n, pattern=r"checkpoint_(\d+)\.pt"):
    files = []
    for path in glob.glob(os.path.join(directory, "*.pt")):
        m = re.search(pattern, os.path.basename(path))
        if m:
            files.append((int(m.group(1)), path))
    files.sort()
    return [p for _, p in files[-n:]]


def average(paths):
    avg = collections.OrderedDict()
    first = None
    for path in paths:
        state = torch.load(path, map_location="cpu")
        model_sd = state["model"] if "model" in state else state
        if first is None:
            first = {k: v for k, v in model_sd.items()}
        for k, v in model_sd.items():
            if not v.is_floating_point():
                avg.setdefault(k, v)
                continue
            if k not in avg:
                avg[k] = v.double().clone()
            else:
                avg[k] += v.double()
    for k, v in avg.items():
        if v.is_floating_point():
            avg[k] = (v / len(paths)).to(first[k].dtype)
    return avg, first


def distance(a, b):
    return sum((a[k].float() - b[k].float()).pow(2).sum().item() for k in a if a[k].is_floating_point()) ** 0.5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--num", type=int, default=5)
    ap.add_argument("--output", required=True)
    args = ap.parse_args()

    paths = last_n_checkpoints(args.dir, args.num)
    if not paths:
        raise SystemExit(f"no checkpoints in {args.dir}")
    print("averaging:\n  " + "\n  ".join(paths))
    avg, first = average(paths)
    print(f"distance(first, average) = {distance(first, avg):.4f}")

    from model import TransformerLM  # project model definition
    model = TransformerLM.from_config(os.path.join(args.dir, "config.json"))
    model.load_state_dict(avg)
    snapshot = model.state_dict()
    print(f"loaded average into model: {sum(v.numel() for v in snapshot.values())} numbers")
    torch.save({"model": snapshot, "averaged_from": paths}, args.output)


if __name__ == "__main__":
    main()
