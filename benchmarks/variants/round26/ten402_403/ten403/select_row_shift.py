import torch

torch.manual_seed(0)

# per-joint trajectories: (joints, 2 coords, time) ; smooth the x-coordinate by a one-step delay
traj = torch.cumsum(torch.randn(4, 2, 12), dim=-1)

xs = traj.select(1, 0)  # (joints, time) view
prev = xs[:, :-1]
xs[:, 1:] = prev  # expect: TEN403

# same delay for a stacked (time, joints, coords) layout, through a permuted view
tjc = torch.cumsum(torch.randn(12, 4, 3), dim=0)  # last coord is a confidence score
tjc_ref = tjc.clone()
view = tjc[:, :, :2].permute(1, 2, 0)  # (joints, xy, time)
view[:, :, 1:] = view[:, :, :-1]  # expect: TEN403
tjc_ref[1:, :, :2] = tjc_ref[:-1, :, :2].clone()  # ok

# per-row: first coordinate column of a (rows, 2, cols) tensor, shifted along rows
grid = torch.arange(40.).reshape(5, 2, 4)
col = grid.select(1, 1)  # (5, 4), stride (8, 1): not dense
col[1:] = col[:-1]  # expect: TEN403
grid[:, 0, 1:] = grid[:, 1, :-1]  # ok

print("joint 0 x after delay", [round(v, 3) for v in traj[0, 0].tolist()])
print("permuted delay mismatch", round((tjc - tjc_ref).abs().max().item(), 4))
print("grid", grid[:, 1, 0].tolist(), grid[2, 0].tolist())
