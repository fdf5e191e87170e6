"""Entry point: python -m pkg_lm.main"""
import torch

from .callbacks import GradNormMonitor, LossCurve, PerplexityLog
from .model import TinyMoELM
from .trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)


def synthetic_batches(n, vocab=12, seq=7):
    batches = []
    for _ in range(n):
        start = torch.randint(0, vocab, (4, 1))
        batches.append((start + torch.arange(seq)) % vocab)
    return batches


def main():
    model = TinyMoELM()
    curve, grads, ppl_log = LossCurve(), GradNormMonitor(), PerplexityLog()
    trainer = Trainer(model, [curve, grads, ppl_log])
    trainer.fit(synthetic_batches(5), synthetic_batches(2))
    sample = trainer.generate(torch.tensor([[1, 2, 3, 4]]))
    print(len(curve.points), grads.norms[-1], [p.item() for p in ppl_log.values], sample.tolist())
    print(trainer.history[-1], len(model.ffn.router_log))


if __name__ == "__main__":
    main()
