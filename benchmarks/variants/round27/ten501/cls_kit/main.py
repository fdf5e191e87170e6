"""python -m cls_kit.main"""
import torch

torch.manual_seed(0)

from .callbacks import LossHistory, GradNormPrinter
from .data import make_loader
from .model import build_model
from .trainer import Trainer


def main():
    hist, gn = LossHistory(), GradNormPrinter()
    tr = Trainer(build_model(), callbacks=[hist, gn]).fit(make_loader(5), epochs=2)
    val = tr.evaluate(make_loader(3, seed=1))
    print("train avg", round(tr.loss_meter.avg, 4), round(tr.loss_meter_ok.avg, 4))
    print("margin", round(tr.margin_meter.avg, 4), "val", round(val, 4))
    print("history", [round(l.item(), 4) for l in hist.losses[-3:]], "gradnorm", round(gn.norms[-1], 4))
    print("confusion diag", tr.confusion.mat.diag().tolist())


if __name__ == "__main__":
    main()
