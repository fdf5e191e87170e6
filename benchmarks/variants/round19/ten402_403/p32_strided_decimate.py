"""In-place polyphase tricks on interleaved stereo samples (B, 2*N)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

pcm = torch.arange(2 * 12, dtype=torch.float32).view(2, 12)

# swap channels: even <- odd touches disjoint elements
mono_left = pcm.clone()  # ok
mono_left[:, ::2] = mono_left[:, 1::2]  # ok

# duplicate every other sample forward by one frame (reads slots it also writes)
held = pcm.clone()  # ok
held[:, 2::2] = held[:, :-2:2]  # expect: TEN403

# same but from an untouched copy
held_ok = pcm.clone()  # ok
src = pcm[:, :-2:2]
held_ok[:, 2::2] = src  # ok

# identical region: a no-op self-assignment
same = pcm.clone()  # ok
same[:, 3:9] = same[:, 3:9]  # ok

# non-overlapping block move
block = pcm.clone()  # ok
block[:, 0:4] = block[:, 6:10]  # ok
block[:, 2:8] = block[:, 4:10]  # expect: TEN403

print("held equal:", torch.equal(held, held_ok), held[0].tolist())
print(block[0].tolist(), mono_left[0].tolist(), torch.equal(same, pcm))
