"""Shifting through reshaped views of an image batch."""
import torch

torch.manual_seed(0)
img = torch.randn(2, 3, 4)

# view() of a contiguous tensor shares its storage
flat_src = img.clone()
flat = flat_src.view(-1)
try:
    flat[1:] = flat_src.view(-1)[:-1]  # expect: TEN403
    print("flat view shift sum: %.6f" % flat_src.sum().item())
except RuntimeError as e:
    print("flat view shift RuntimeError:", str(e).split(".")[0])

# reshape() of a transposed (non-contiguous) tensor returns a copy
t = img.clone().transpose(1, 2)
t_flat = t.reshape(2, -1)
t_flat[:, 1:] = t.reshape(2, -1)[:, :-1]  # ok
print("reshape copy shift sum: %.6f" % t_flat.sum().item())

# disjoint halves of the same tensor
halves = img.clone()
halves[0] = halves[1]  # ok
print("halves sum: %.6f" % halves.sum().item())
