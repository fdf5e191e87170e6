"""Weight initialisation the old way, via model.apply and reset_parameters."""
import math

import torch
import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        m.weight.data.normal_(0.0, 0.02)  # expect: TEN102
    elif classname.find("BatchNorm") != -1:
        m.weight.data.normal_(1.0, 0.02)  # expect: TEN102
        m.bias.data.fill_(0)  # expect: TEN102


def init_linear(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight.data)  # expect: TEN102
        if module.bias is not None:
            module.bias.data.zero_()  # expect: TEN102
    elif isinstance(module, nn.Embedding):
        module.weight.data.uniform_(-0.1, 0.1)  # expect: TEN102
        module.weight.data[module.padding_idx or 0].zero_()  # expect: TEN102


def init_linear_ok(module):
    if isinstance(module, nn.Linear):
        nn.init.xavier_uniform_(module.weight)  # ok
        if module.bias is not None:
            nn.init.zeros_(module.bias)  # ok


class NoisyLinear(nn.Module):
    def __init__(self, in_f, out_f):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_f, in_f))
        self.bias = nn.Parameter(torch.empty(out_f))
        self.register_buffer("noise", torch.zeros(out_f, in_f))
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.weight.data.size(1))  # expect: TEN101
        self.weight.data.uniform_(-stdv, stdv)  # expect: TEN102
        self.bias.data.uniform_(-stdv, stdv)  # expect: TEN102

    def resample(self):
        self.noise.data.normal_()  # expect: TEN102

    def forward(self, x):
        return nn.functional.linear(x, self.weight + 0.01 * self.noise, self.bias)


class Encoder(nn.Module):
    def __init__(self, vocab, dim, pretrained=None):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)
        if pretrained is not None:
            self.emb.weight.data.copy_(torch.from_numpy(pretrained))  # expect: TEN102
        self.proj.weight.data = torch.eye(dim)  # expect: TEN103

    def forward(self, ids):
        return self.proj(self.emb(ids))


if __name__ == "__main__":
    import numpy as np
    net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4))
    net.apply(weights_init)
    enc = Encoder(10, 4, np.ones((10, 4), dtype=np.float32))
    enc.apply(init_linear)
    nl = NoisyLinear(3, 2)
    nl.resample()
    print(nl(torch.ones(1, 3)).shape)
