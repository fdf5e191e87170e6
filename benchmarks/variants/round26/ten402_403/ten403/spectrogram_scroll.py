import torch

torch.manual_seed(0)

n_fft, hop, width = 32, 16, 12
signal = torch.sin(torch.arange(2000) * 0.3) + 0.1 * torch.randn(2000)
window = torch.hann_window(n_fft)
n_bins = n_fft // 2 + 1

display = torch.zeros(n_bins, width)
waterfall = torch.zeros(2, n_bins, width)  # two channels, same content
history = torch.zeros(n_bins, width)
cols_per_update = 2

for start in range(0, 600, hop * cols_per_update):
    chunk = signal[start:start + hop * cols_per_update + n_fft]
    spec = torch.stft(chunk, n_fft, hop, window=window, return_complex=True, center=False).abs()[:, :cols_per_update]
    # scroll the display left and write the new columns at the right edge
    display[:, :-cols_per_update] = display[:, cols_per_update:]  # expect: TEN403
    display[:, -cols_per_update:] = spec  # ok
    w = waterfall.shape[-1]
    waterfall.narrow(2, cols_per_update, w - cols_per_update).copy_(waterfall.narrow(2, 0, w - cols_per_update))  # expect: TEN403
    waterfall[..., :cols_per_update] = spec.flip(-1)  # ok
    history = torch.cat([history[:, cols_per_update:], spec], dim=1)  # ok

print("display vs history max diff", round((display - history).abs().max().item(), 6))
print("waterfall vs flipped history max diff", round((waterfall[0] - history.flip(-1)).abs().max().item(), 6))
print("column energies", [round(v, 3) for v in history.sum(0).tolist()])
