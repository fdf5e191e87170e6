import torch

torch.manual_seed(0)

gamma, lam = 0.95, 0.8
T, E = 10, 3
rewards = torch.randn(E, T)
values = torch.randn(E, T + 1)

# TD(lambda) returns: backward recursion over a preallocated buffer
G = torch.zeros(E, T + 1)
G[:, -1] = values[:, -1]  # ok
for t in reversed(range(T)):
    G[:, t] = rewards[:, t] + gamma * ((1 - lam) * values[:, t + 1] + lam * G[:, t + 1])  # ok

# one-step TD targets in a shared buffer: right-hand side is materialised first
td = values.clone()
td[:, :-1] = rewards + gamma * td[:, 1:]  # ok

# decay of accumulating traces, "vectorised" over time
traces = torch.ones(E, T)
traces[:, 1:].mul_(traces[:, :-1] * gamma * lam)  # ok
traces2 = torch.ones(E, T)
traces2[:, 1:] *= gamma * lam  # ok
traces3 = torch.ones(E, T) * 0.5
traces3[:, 1:].addcmul_(traces3[:, :-1], torch.full((E, T - 1), gamma * lam))  # expect: TEN403

print("lambda returns env0", [round(v, 4) for v in G[0, :5].tolist()])
print("td targets env0    ", [round(v, 4) for v in td[0, :5].tolist()])
print("traces", [round(v, 4) for v in traces[0, :4].tolist()], [round(v, 4) for v in traces2[0, :4].tolist()])
print("traces3", [round(v, 4) for v in traces3[0, :6].tolist()])
