"""PPO-style clipped updates against a frozen 'old policy' and a mean teacher."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)


class PPOLearner:
    def __init__(self, frozen):
        self.pi = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
        self.opt = torch.optim.Adam(self.pi.parameters(), lr=0.03)
        self.frozen = frozen

    def freeze_old(self):
        sd = self.pi.state_dict()  # ok
        if self.frozen:
            self.old = {k: v.contiguous().clone() for k, v in sd.items()}  # ok
        else:
            self.old = {k: v.contiguous() for k, v in sd.items()}  # expect: TEN402

    def update(self, obs, act, adv, epochs=6, clip=0.2):
        self.freeze_old()
        ratios = []
        for _ in range(epochs):
            with torch.no_grad():
                old_logp = functional_call(self.pi, self.old, (obs,)).log_softmax(1).gather(1, act[:, None])
            logp = self.pi(obs).log_softmax(1).gather(1, act[:, None])
            ratio = (logp - old_logp).exp().squeeze(1)
            loss = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            ratios.append((ratio - 1).abs().max().item())
        return max(ratios)


for frozen in (False, True):
    torch.manual_seed(0)
    learner = PPOLearner(frozen)
    obs, act, adv = torch.randn(64, 4), torch.randint(0, 3, (64,)), torch.randn(64)
    print(f"frozen={frozen} max |ratio-1| over epochs = {learner.update(obs, act, adv):.4f}")

# mean teacher initialised from the student
torch.manual_seed(0)
student = nn.Linear(3, 3)
teacher_a = nn.Linear(3, 3)
teacher_a.load_state_dict(student.state_dict(), assign=True)  # either
teacher_b = nn.Linear(3, 3)
teacher_b.load_state_dict(student.state_dict())  # ok
opt = torch.optim.SGD(student.parameters(), lr=0.5)
x = torch.randn(10, 3)
for _ in range(5):
    opt.zero_grad()
    (student(x) - x.flip(1)).pow(2).mean().backward()
    opt.step()
print("assign=True teacher follows student:", torch.equal(teacher_a.weight, student.weight))
print("copying teacher follows student:", torch.equal(teacher_b.weight, student.weight))
