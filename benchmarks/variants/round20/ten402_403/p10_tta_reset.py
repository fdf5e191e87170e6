"""Test-time adaptation by entropy minimisation, with episodic resets."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Adapter:
    def __init__(self, model, lr=0.05, dict_copy=True):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        if dict_copy:
            self.source_state = model.state_dict().copy()  # expect: TEN402
        else:
            self.source_state = copy.deepcopy(model.state_dict())  # ok
        self.source_opt = copy.deepcopy(self.opt.state_dict())  # ok

    def adapt(self, x):
        logits = self.model(x)
        probs = logits.softmax(1)
        ent = -(probs * probs.clamp_min(1e-8).log()).sum(1).mean()
        self.opt.zero_grad()
        ent.backward()
        self.opt.step()
        return logits.detach()

    def reset(self):
        self.model.load_state_dict(self.source_state)
        self.opt.load_state_dict(self.source_opt)


for dict_copy in (True, False):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Linear(12, 4))
    source_w = net[3].weight.detach().clone()  # ok
    tta = Adapter(net, dict_copy=dict_copy)
    for domain in range(2):
        for _ in range(10):
            tta.adapt(torch.randn(16, 6) * (domain + 1))
        tta.reset()
    back = torch.equal(net[3].weight, source_w)
    print(f"dict_copy={dict_copy} reset_returns_to_source={back}")
