import torch

torch.manual_seed(0)

sr = 800
t = torch.arange(sr) / sr
dry = torch.stack([torch.sin(2 * 3.14159 * 5 * t), torch.sign(torch.sin(2 * 3.14159 * 3 * t))]) * (t < 0.1)
delay, feedback = 40, 0.6

# feed-forward echo: y[n] = x[n] + g * x[n - d]
ff = dry.clone()
ff[:, delay:] += feedback * ff[:, :-delay]  # ok

# feedback comb: y[n] = x[n] + g * y[n - d], "vectorised"
fb = dry.clone()
fb[:, delay:].add_(fb[:, :-delay], alpha=feedback)  # expect: TEN403

# feedback comb, block by block (each block only reads finished samples)
fb_ref = dry.clone()
for s in range(delay, sr, delay):
    fb_ref[:, s:s + delay] += feedback * fb_ref[:, s - delay:s]  # ok

print("ff energy", [round(v, 4) for v in ff.pow(2).sum(1).tolist()])
print("fb energy (vectorised)", [round(v, 4) for v in fb.pow(2).sum(1).tolist()])
print("fb energy (blocks)    ", [round(v, 4) for v in fb_ref.pow(2).sum(1).tolist()])
