"""Speech front-end pieces: pre-emphasis y[n] = x[n] - a x[n-1] and first-order differences,
done in place to save memory on long batches, next to out-of-place versions."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def pre_emphasis_inplace(wav, coeff=0.97):
    """wav: (batch, samples)."""
    wav[:, 1:] -= coeff * wav[:, :-1]  # ok
    return wav


def pre_emphasis_sub_(wav, coeff=0.97):
    wav[:, 1:].sub_(wav[:, :-1], alpha=coeff)  # either: TEN403
    return wav


def pre_emphasis(wav, coeff=0.97):
    return torch.cat([wav[:, :1], wav[:, 1:] - coeff * wav[:, :-1]], dim=1)  # ok


def delta_inplace(feats):
    """feats: (batch, T); first-order difference along time."""
    feats[:, 1:] -= feats[:, :-1]  # either: TEN403
    return feats


def delta_1d_inplace(track):
    try:
        track[1:] -= track[:-1]  # either: TEN403
    except RuntimeError as e:
        return "RuntimeError: " + str(e).split(".")[0]
    return track.tolist()


def delta(feats):
    out = feats.clone()
    out[:, 1:] = feats[:, 1:] - feats[:, :-1]  # ok
    return out


if __name__ == "__main__":
    wav = torch.arange(1.0, 9.0).repeat(2, 1)
    print("pre_emphasis         :", [round(v, 4) for v in pre_emphasis(wav)[0].tolist()])
    print("pre_emphasis_inplace :", [round(v, 4) for v in pre_emphasis_inplace(wav.clone())[0].tolist()])
    print("pre_emphasis_sub_    :", [round(v, 4) for v in pre_emphasis_sub_(wav.clone())[0].tolist()])
    f = (torch.arange(8.0) ** 2).repeat(2, 1)
    print("delta                :", delta(f)[0].tolist())
    print("delta_inplace        :", delta_inplace(f.clone())[0].tolist())
    print("delta_1d_inplace     :", delta_1d_inplace(torch.arange(8.0) ** 2))
