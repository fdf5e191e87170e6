"""Self-distillation: a periodically refreshed teacher evaluated with functional_call."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call

torch.manual_seed(0)

student = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
teacher_net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(student.parameters(), lr=0.1)
x = torch.randn(128, 10)
y = (x[:, :4] + 0.5 * torch.randn(128, 4)).argmax(1)

# separate teacher module: values are copied into its own parameters right away
teacher_net.load_state_dict(student.state_dict())  # ok
# functional teacher: a dict of tensors handed to functional_call
teacher_params = {k: v for k, v in student.state_dict().items()}  # expect: TEN402

T = 2.0
for step in range(40):
    if step and step % 10 == 0:
        teacher_params = {k: v.detach().clone() for k, v in student.state_dict().items()}  # ok
        teacher_net.load_state_dict(student.state_dict())  # ok
    with torch.no_grad():
        t_logits = functional_call(student, teacher_params, (x,))
        t_logits_net = teacher_net(x)
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean")
    kd_net = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits_net / T, 1), reduction="batchmean")
    loss = F.cross_entropy(s_logits, y) + 2.0 * kd
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step:2d}: ce {F.cross_entropy(s_logits, y).item():.5f} "
              f"kd(functional teacher) {kd.item():.6f} kd(module teacher) {kd_net.item():.6f}")
