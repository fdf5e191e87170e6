"""Language-model fine-tuning loop, HF-Trainer flavoured."""
import argparse
import logging
import math

import torch

from modeling import TinyLM
from trainer_utils import training_step

logger = logging.getLogger(__name__)


def get_batches(n, bs=4, seq=9):
    for _ in range(n):
        ids = torch.randint(0, 40, (bs, seq))
        yield {"input_ids": ids, "labels": ids}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_train_epochs", type=int, default=2)
    parser.add_argument("--logging_steps", type=int, default=2)
    args = parser.parse_args([])
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    global_step = 0
    logged = []
    all_outputs = []
    for epoch in range(args.num_train_epochs):
        tr_loss = torch.tensor(0.0)
        ppl_sum = 0.0
        for batch in get_batches(4):
            out = training_step(model, batch, optimizer)
            tr_loss += out["loss"]  # expect: TEN501
            ppl_sum += torch.exp(out["loss"])  # expect: TEN501
            all_outputs.append(out)  # expect: TEN501
            logged.append(out["loss"].item())  # ok
            global_step += 1  # ok
            if global_step % args.logging_steps == 0:
                logger.info("step %d loss %.4f", global_step, logged[-1])
        logger.info("epoch %d ppl %.2f", epoch, math.exp(tr_loss.item() / 4))
    return all_outputs


if __name__ == "__main__":
    main()
