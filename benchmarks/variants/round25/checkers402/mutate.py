"""Mutation test of check.py: flip labels and break sites in a scratch copy, rerun the
checker there, and verify that exactly the mutated sites are reported FAIL."""
import os, re, shutil, subprocess, sys, tempfile

SRC = "/tmp/r25/ten402_403"
HERE = os.path.dirname(os.path.abspath(__file__))

# (file, old substring on the labeled line, new text, kind)
MUTATIONS = [
    # label flips
    ("s402_fedavg.py", "client_states.append(trained.state_dict())  # expect: TEN402", "client_states.append(trained.state_dict())  # ok", "flip expect->ok"),
    ("s402_gan_history.py", "g_hist.append(G.state_dict())  # expect: TEN402", "g_hist.append(G.state_dict())  # ok", "flip expect->ok"),
    ("s402_lookahead.py", "for g in base.param_groups]  # ok", "for g in base.param_groups]  # expect: TEN402", "flip ok->expect"),
    ("s402_registry_module.py", "SAFE_SNAPSHOTS[tag] = copy.deepcopy(model.state_dict())  # ok", "SAFE_SNAPSHOTS[tag] = copy.deepcopy(model.state_dict())  # expect: TEN402", "flip ok->expect"),
    ("s403_frame_stack.py", "self.frames[:, :-1] = self.frames[:, 1:]  # expect: TEN403", "self.frames[:, :-1] = self.frames[:, 1:]  # ok", "flip expect->ok"),
    ("s403_comb_filter.py", "self.line[:, 1:] = self.line[:, :-1].detach()  # expect: TEN403", "self.line[:, 1:] = self.line[:, :-1].detach()  # ok", "flip expect->ok"),
    ("s403_meter_window.py", "self.last_epoch[:, 1:].copy_(self.win[:, :-1])  # ok", "self.last_epoch[:, 1:].copy_(self.win[:, :-1])  # expect: TEN403", "flip ok->expect"),
    ("s403_stepped_slices.py", "stereo[:, 1::2] = stereo[:, ::2]  # ok", "stereo[:, 1::2] = stereo[:, ::2]  # expect: TEN403", "flip ok->expect"),
    # code breaks (label kept)
    ("s402_finetune_rollback.py", "prev = model.state_dict()  # expect: TEN402", "prev = __import__('copy').deepcopy(model.state_dict())  # expect: TEN402", "fix an expect site"),
    ("s402_zoo_classattr.py", "Zoo.members.append(self.net.state_dict())  # expect: TEN402", "Zoo.members.append({k: v.clone() for k, v in self.net.state_dict().items()})  # expect: TEN402", "fix an expect site"),
    ("s402_ema_teacher.py", "{k: v.detach().clone() for k, v in model.state_dict().items()}  # ok", "{k: v.detach() for k, v in model.state_dict().items()}  # ok", "break an ok site"),
    ("s402_update_sanity.py", "before = [(n, p.clone()) for n, p in model.named_parameters()]  # ok", "before = [(n, p) for n, p in model.named_parameters()]  # ok", "break an ok site"),
    ("pkg402/snapshots.py", "self._items[key] = copy.deepcopy(model.state_dict())  # ok", "self._items[key] = model.state_dict()  # ok", "break an ok site"),
    ("s403_lag_features.py", "lags[:, 1:] = lags[:, :-1]  # expect: TEN403", "lags[:, 1:] = lags[:, :-1].clone()  # expect: TEN403", "fix an expect site"),
    ("s403_kv_cache.py", "= self.k[:, :, 1:], self.v[:, :, 1:]  # expect: TEN403", "= self.k[:, :, 1:].clone(), self.v[:, :, 1:].clone()  # expect: TEN403", "fix an expect site"),
    ("pkg403/augment.py", "sig[..., s:] = sig[..., :-s]  # expect: TEN403", "sig[..., s:] = sig[..., :-s].clone()  # expect: TEN403", "fix an expect site"),
    ("s403_audio_ring.py", "self.buf[:, :-hop] = self.buf[:, hop:].clone()  # ok", "self.buf[:, :-hop] = self.buf[:, hop:]  # ok", "break an ok site"),
    ("s403_rel_pos_skew.py", "m[1:, 1:] = m[:-1, :-1].contiguous()  # ok", "m[1:, 1:] = m[:-1, :-1]  # ok", "break an ok site"),
]


def main():
    root = tempfile.mkdtemp(prefix="r25mut_")
    expected = set()
    files = sorted(set(m[0] for m in MUTATIONS))
    for f in files:
        src = os.path.join(SRC, f.split("/")[0]) if "/" in f else os.path.join(SRC, f)
        dst = os.path.join(root, os.path.relpath(src, SRC))
        if os.path.isdir(src):
            if not os.path.exists(dst):
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, dst)
    for f, old, new, kind in MUTATIONS:
        p = os.path.join(root, f)
        lines = open(p).read().split("\n")
        hits = [i for i, l in enumerate(lines) if old in l]
        assert len(hits) == 1, (f, old, hits)
        lines[hits[0]] = lines[hits[0]].replace(old, new)
        open(p, "w").write("\n".join(lines))
        expected.add(f"{f}:{hits[0] + 1}")
    out = os.path.join(HERE, "mutation_checker_output")
    subprocess.run([sys.executable, os.path.join(HERE, "check.py"), root, out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    res = open(out + ".txt").read().splitlines()
    failed = set()
    for l in res:
        m = re.match(r"FAIL \S+ \S+\s+(\S+:\d+)", l)
        if m:
            failed.add(m.group(1))
    errors = [l for l in res if l.startswith("ERROR")]
    caught = expected & failed
    report = [f"mutations applied: {len(MUTATIONS)} (label flips: 8, code breaks: 10) in {len(files)} files"]
    for f, old, new, kind in MUTATIONS:
        site = [e for e in expected if e.startswith(f + ":")]
    for e in sorted(expected):
        kind = [m[3] for m in MUTATIONS if e.startswith(m[0] + ":")]
        report.append(f"  {'CAUGHT' if e in failed else 'MISSED'} {e}")
    report.append(f"caught {len(caught)}/{len(expected)}; unexpected FAILs on unmutated sites: {sorted(failed - expected)}; checker ERRORS: {len(errors)}")
    open(os.path.join(HERE, "mutation_results.txt"), "w").write("\n".join(report) + "\n")
    print("\n".join(report))
    shutil.rmtree(root, ignore_errors=True)
    sys.exit(0 if caught == expected and not (failed - expected) and not errors else 1)


if __name__ == "__main__":
    main()
