"""'Offload' a best snapshot to CPU -- on a CPU-only run .cpu() is a no-op."""
import torch
import torch.nn as nn

torch.manual_seed(0)
device = torch.device("cpu")
model = nn.GRU(4, 8, batch_first=True).to(device)
head = nn.Linear(8, 1).to(device)
params = list(model.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=0.05)
seq = torch.randn(16, 12, 4, device=device)
tgt = seq.cumsum(1)[:, -1, :1]
vseq = torch.randn(16, 12, 4, device=device) * 1.5
vtgt = vseq.cumsum(1)[:, -1, :1]


def val():
    with torch.no_grad():
        return ((head(model(vseq)[0][:, -1]) - vtgt) ** 2).mean().item()


best_val, best_rnn, best_head, best_head64 = float("inf"), None, None, None
for it in range(25):
    opt.zero_grad()
    ((head(model(seq)[0][:, -1]) - tgt) ** 2).mean().backward()
    opt.step()
    v = val()
    if v < best_val:
        best_val = v
        best_rnn = {k: v_.cpu() for k, v_ in model.state_dict().items()}  # expect: TEN402
        best_head = {k: v_.cpu().clone() for k, v_ in head.state_dict().items()}  # ok
        best_head64 = {k: v_.double() for k, v_ in head.state_dict().items()}  # ok
print("best val", round(best_val, 5), "last val", round(val(), 5))
model.load_state_dict(best_rnn)
head.load_state_dict(best_head)
print("restored val", round(val(), 5))
print("head64 matches head", all(torch.allclose(best_head64[k].float(), v) for k, v in head.state_dict().items()))
