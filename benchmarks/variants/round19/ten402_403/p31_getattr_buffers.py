"""History buffers registered on a module and advanced by name."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class HistoryEncoder(nn.Module):
    def __init__(self, batch=2, feat=3, horizon=5):
        super().__init__()
        for name in ("obs_hist", "act_hist"):
            self.register_buffer(name, torch.zeros(batch, horizon, feat))
        self.proj = nn.Linear(horizon * feat * 2, 4)

    def advance(self, **latest):
        for name, value in latest.items():
            getattr(self, name)[:, 1:] = getattr(self, name)[:, :-1]  # expect: TEN403
            getattr(self, name)[:, 0] = value  # ok

    def advance_safe(self, **latest):
        for name, value in latest.items():
            buf = getattr(self, name)
            setattr(self, name, torch.cat([value[:, None], buf[:, :-1]], dim=1))  # ok

    def forward(self):
        return self.proj(torch.cat([self.obs_hist.flatten(1), self.act_hist.flatten(1)], 1))


enc, enc_safe = HistoryEncoder(), HistoryEncoder()
enc_safe.load_state_dict(enc.state_dict())  # ok
for t in range(6):
    o, a = torch.randn(2, 3), torch.randn(2, 3)
    enc.advance(obs_hist=o, act_hist=a)
    enc_safe.advance_safe(obs_hist=o, act_hist=a)
print("encoder output gap:", (enc() - enc_safe()).abs().max().item())
