import torch

from proj_stream.streamer import FrameHistory, LookbackDelay, OverlapAddStreamer

if __name__ == "__main__":
    torch.manual_seed(0)
    s = OverlapAddStreamer()
    s.buf.normal_()
    ref = s.buf.clone(); ref[:, :-16] = s.buf[:, 16:].clone(); ref[:, -16:] = 1.0
    print("push wrong:", (s.push(torch.ones(2, 16)) != ref).sum().item())
    d = LookbackDelay(); d.line.normal_()
    ref = d.line.clone(); ref[:, 5:] = d.line[:, :-5].clone(); ref[:, :5] = 0
    try:
        d.delay_by(5)
        print("delay wrong:", (d.line != ref).sum().item())
    except RuntimeError as e:
        print("delay raised:", str(e)[:50])
    f = FrameHistory()
    try:
        f.push(torch.ones(8))
        print("frame history no error")
    except RuntimeError as e:
        print("frame history raised:", str(e)[:50])
    s2 = OverlapAddStreamer(); s2.out_acc.normal_()
    ref = s2.out_acc.clone() + 1; ref[:, :-16] = ref[:, 16:].clone(); ref[:, -16:] = 0
    s2.overlap_add(torch.ones(2, 64))
    print("overlap_add wrong:", (s2.out_acc != ref).sum().item())
