"""An nn.Module that turns a stream of readings into lag features for an online model.
Buffers are registered so they move with .to() and are saved in the state dict."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LagFeatures(nn.Module):
    def __init__(self, n_series, n_lags, stride):
        super().__init__()
        self.k = stride
        self.n_lags = n_lags
        self.register_buffer("hist", torch.zeros(n_series, n_lags * stride))
        self.register_buffer("norm_hist", torch.zeros(n_lags * stride))

    @torch.no_grad()
    def update(self, x):
        """x: (n_series, stride) newest block, newest sample first."""
        self.hist[:, self.k:] = self.hist[:, :-self.k]  # expect: TEN403
        self.hist[:, :self.k] = x
        try:
            self.norm_hist[self.k:] = self.norm_hist[:-self.k]  # expect: TEN403
        except RuntimeError as e:
            self.last_error = str(e).split(".")[0]
        self.norm_hist[:self.k] = x.norm(dim=0)

    def forward(self):
        return self.hist[:, :: self.k]


class LagFeaturesCat(LagFeatures):
    @torch.no_grad()
    def update(self, x):
        self.hist = torch.cat([x, self.hist[:, :-self.k]], dim=1)  # ok
        self.norm_hist = torch.cat([x.norm(dim=0), self.norm_hist[:-self.k]])  # ok


if __name__ == "__main__":
    for cls in (LagFeatures, LagFeaturesCat):
        m = cls(n_series=2, n_lags=3, stride=2)
        for t in range(5):
            block = torch.tensor([[2.0 * t + 1, 2.0 * t], [-(2.0 * t + 1), -2.0 * t]])
            m.update(block)
        print(f"{cls.__name__:15s} hist[0]={m.hist[0].tolist()} lags={m()[0].tolist()} "
              f"norm_hist={[round(v, 3) for v in m.norm_hist.tolist()]} err={getattr(m, 'last_error', None)}")
