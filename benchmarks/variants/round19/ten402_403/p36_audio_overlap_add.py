"""Streaming overlap-add synthesis with an in-place accumulator."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

B, FRAME, HOP = 2, 8, 4
window = torch.hann_window(FRAME)
acc = torch.zeros(B, FRAME)
acc_ok = torch.zeros(B, FRAME)
out, out_ok = [], []
for _ in range(5):
    frame = torch.randn(B, FRAME) * window
    acc += frame  # ok
    out.append(acc[:, :HOP].clone())
    acc[:, :HOP] = acc[:, HOP:]  # ok
    acc[:, HOP:] = 0  # ok

    acc_ok.add_(frame)  # ok
    out_ok.append(acc_ok[:, :HOP].clone())
    acc_ok = torch.cat([acc_ok[:, HOP:], torch.zeros(B, HOP)], dim=1)  # ok

# a "half hop" variant: advance by HOP // 2, the two halves now overlap
acc2 = torch.randn(B, FRAME)
acc2_ref = acc2.clone()  # ok
h = HOP // 2
acc2[:, : FRAME - h] = acc2[:, h:]  # expect: TEN403
acc2_ref[:, : FRAME - h] = acc2_ref[:, h:].clone()  # ok
print("ola equal:", torch.equal(torch.cat(out, 1), torch.cat(out_ok, 1)))
print("half-hop advance equal:", torch.equal(acc2, acc2_ref))
