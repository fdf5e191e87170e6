"""Post-processing of predicted quantiles and cumulative hazards."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class Env:
    def __init__(self):
        self.obs = torch.randn(2, 5)


class Agent:
    def __init__(self):
        self.env = Env()

    def tick(self):
        self.env.obs[:, 1:] = self.env.obs[:, :-1]  # expect: TEN403
        self.env.obs[:, 0] = 0.0  # ok


q = torch.randn(3, 6)
# enforce non-decreasing quantiles
q_mono = q.clone()  # ok
q_mono[:, 1:].clamp_(min=q_mono[:, :-1])  # expect: TEN403
q_ref = torch.cummax(q, dim=1).values  # ok

# cumulative hazard via out= into the same buffer
haz = torch.rand(3, 6)
cum = haz.clone()  # ok
torch.add(cum[:, 1:], cum[:, :-1], out=cum[:, 1:])  # expect: TEN403
cum_ref = torch.cumsum(haz, dim=1)  # ok
cum2 = haz.clone()  # ok
torch.add(haz[:, 1:], haz[:, :-1], out=cum2[:, 1:])  # ok

ag = Agent()
for _ in range(3):
    ag.tick()
print("monotone ok:", torch.equal(q_mono, q_ref), "cumsum ok:", torch.allclose(cum, cum_ref))
print("pairwise sums:", cum2[0].tolist()[:3], "obs:", ag.env.obs[0].tolist())
