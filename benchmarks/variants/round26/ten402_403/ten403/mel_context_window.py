import torch

torch.manual_seed(0)

# streaming ASR front-end: keep a left context of C frames for each of B utterances
B, C, F_ = 3, 5, 8
context = torch.zeros(B, F_, C)  # channels-first, time last
context_t = torch.zeros(B, C, F_)  # time-major copy for a second model
safe = torch.zeros(B, F_, C)
for step in range(7):
    frame = torch.randn(B, F_) + step
    context[..., :-1] = context[..., 1:]  # expect: TEN403
    context[..., -1] = frame  # ok
    context_t[:, :-1, :] = context_t[:, 1:, :]  # expect: TEN403
    context_t[:, -1, :] = frame  # ok
    tmp = safe[..., 1:].clone()
    safe[..., :-1] = tmp  # ok
    safe[..., -1] = frame  # ok

print("context means per slot", [round(v, 4) for v in context.mean((0, 1)).tolist()])
print("time-major   per slot", [round(v, 4) for v in context_t.mean((0, 2)).tolist()])
print("safe         per slot", [round(v, 4) for v in safe.mean((0, 1)).tolist()])
