"""python -m pkg_b.main"""
import torch

from . import state
from .model import Autoencoder, compute_losses, predict, predict_safe
from .recorder import CleanRecorder, Recorder


def main():
    torch.manual_seed(0)
    model = Autoencoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    rec, clean = Recorder(), CleanRecorder()
    kl_trace, kl_trace_f, preds = [], [], []
    data = torch.randn(6, 12, 10)
    for epoch in range(2):
        for x in data:
            terms = compute_losses(model, x)
            opt.zero_grad()
            terms["total"].backward()
            opt.step()
            rec.record(terms)  # either: TEN501
            clean.record(terms)  # ok
            rec.record_total(terms["kl"])  # either: TEN501
            kl_trace.append(terms["kl"])  # expect: TEN501
            kl_trace_f.append(terms["kl"].item())  # ok
        state.stash(predict(model, data[0]))  # either: TEN501
        state.stash_safe(predict(model, data[0]))  # ok
        preds.append(predict_safe(model, data[0]))  # ok
    print(len(rec.rows), len(clean.rows), round(sum(kl_trace_f), 4), state.N_STASHED, len(preds))


if __name__ == "__main__":
    main()
