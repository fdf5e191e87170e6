import torch

from proj_lit.core import MiniTrainer
from proj_lit.model import LitClassifier


def make_loader(n=6, bs=8):
    return [(torch.randn(bs, 16), torch.randint(0, 4, (bs,))) for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    module = LitClassifier()
    trainer = MiniTrainer(max_epochs=2).fit(module, make_loader(), make_loader(2))
    print("train_outputs graph:", trainer.train_outputs[0]["loss"].grad_fn is not None,
          trainer.train_outputs[0]["logits"].grad_fn is not None, len(trainer.train_outputs))
    print("logged graph:", module._logged["train_loss"][0].grad_fn is not None)
