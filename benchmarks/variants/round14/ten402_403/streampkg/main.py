"""Feed a chirp through the streaming front-end with different buffer strategies."""
import torch

from .frontend import StreamingFrontend


def chirp(n):
    t = torch.arange(n, dtype=torch.float32)
    return torch.sin(0.02 * t * t)


def run(**kw):
    fe = StreamingFrontend(**kw)
    sig, feats, states = chirp(15), [], []
    for start in range(0, 15, fe.hop):
        feats.append(fe.feed(sig[start:start + fe.hop]))
        states.append(fe.state_copy())
    return torch.stack(feats), states[-1]


if __name__ == "__main__":
    ref, ref_state = run(safe=True)
    print("safe window:", [round(v, 3) for v in ref_state.tolist()])
    dbl, dbl_state = run(double_buffer=True)
    print("double buffer matches safe:", torch.allclose(ref, dbl))
    try:
        run()
    except RuntimeError as err:
        print("in-place shift failed:", str(err)[:60])
