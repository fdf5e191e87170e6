"""Mutation tests for check_ten402.py and check_ten403.py.

Each mutation copies ONE program (file or package) into a fresh directory, applies one
textual change (flip a label, or break/fix the labelled code while keeping the label),
runs the relevant checker on that directory only, and records whether the checker
notices (non-zero exit and a FAIL/unlabeled line).  A control run of the unmutated copy
must pass.
"""
import os, shutil, subprocess, sys

SET = "/tmp/r26/ten402_403"
HERE = os.path.dirname(os.path.abspath(__file__))
MUT = os.path.join(HERE, "mut")

MUTATIONS = [
    # (id, rule, program, file inside program (None for single file), old, new, description)
    ("A0", "402", "early_stopping_restore.py", None, None, None, "control: unmodified copy"),
    ("A1", "402", "early_stopping_restore.py", None, "model.state_dict()  # expect: TEN402", "model.state_dict()  # ok", "flip expect->ok"),
    ("A2", "402", "swa_manual.py", None, "for p in model.parameters()])  # ok", "for p in model.parameters()])  # expect: TEN402", "flip ok->expect"),
    ("A3", "402", "ema_by_hand.py", None, "p.detach().clone() for n, p in net.named_parameters()}  # ok", "p.detach() for n, p in net.named_parameters()}  # ok", "break ok site (drop .clone(), keep # ok)"),
    ("A4", "402", "fedavg_clients.py", None, "local_states.append(worker.state_dict())", "local_states.append(copy.deepcopy(worker.state_dict()))", "fix expect site (deepcopy, keep # expect)"),
    ("A5", "402", "snapkit", "snapshots.py", "{k: v.detach() for k, v in module.state_dict().items()}  # expect", "{k: v.detach().clone() for k, v in module.state_dict().items()}  # expect", "fix helper return in package"),
    ("A6", "402", "kfold_reset.py", None, "init_weights = model.state_dict()  # expect: TEN402", "init_weights = {k: v.clone() for k, v in model.state_dict().items()}  # expect: TEN402", "fix expect site with clone"),
    ("A7", "402", "step_changes_weights_test.py", None, "bias_before = model[2].bias.data  # ok", "bias_before = model[2].bias.data  # ok\nprint_later = bias_before", "control-ish: no semantic change (should still pass)"),
    ("B0", "403", "obs_history_window.py", None, None, None, "control: unmodified copy"),
    ("B1", "403", "obs_history_window.py", None, "history[:, :-1]  # expect: TEN403", "history[:, :-1]  # ok", "flip expect->ok"),
    ("B2", "403", "kv_cache_window.py", None, "self.v[:, :, 1:].clone())  # ok", "self.v[:, :, 1:].clone())  # expect: TEN403", "flip ok->expect"),
    ("B3", "403", "tuple_target_rotate.py", None, "a[:, :-1].clone(), a[:, -1:].clone()  # ok", "a[:, :-1], a[:, -1:]  # ok", "break ok site (drop .clone(), keep # ok)"),
    ("B4", "403", "frame_stack_env.py", None, "self.frames[:, :-1] = self.frames[:, 1:]  # expect", "self.frames[:, :-1] = self.frames[:, 1:].clone()  # expect", "fix expect site (clone source, keep # expect)"),
    ("B5", "403", "lag_features.py", None, "lags[:, k, :-k]  # expect: TEN403", "lags[:, k, :-k]", "drop the label of a real hazard"),
    ("B6", "403", "streamfeat", "buffers.py", "state[:, :, :-1] = state[:, :, 1:]  # expect", "state[:, :, :-1] = state[:, :, 1:].clone()  # expect", "fix helper write in package"),
    ("B7", "403", "spectrogram_scroll.py", None, "display[:, cols_per_update:]  # expect", "display[:, cols_per_update:].clone()  # expect", "fix expect site"),
]


def main():
    shutil.rmtree(MUT, ignore_errors=True)
    os.makedirs(MUT)
    lines = []
    ok_all = True
    for mid, rule, prog, inner, old, new, desc in MUTATIONS:
        d = os.path.join(MUT, mid)
        os.makedirs(d)
        src = os.path.join(SET, "ten" + rule, prog)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(d, prog), ignore=shutil.ignore_patterns("__pycache__"))
            target = os.path.join(d, prog, inner)
        else:
            shutil.copy(src, os.path.join(d, prog))
            target = os.path.join(d, prog)
        if old is not None:
            text = open(target).read()
            assert text.count(old) == 1, (mid, old)
            open(target, "w").write(text.replace(old, new))
        chk = os.path.join(HERE, "check_ten%s.py" % rule)
        r = subprocess.run([sys.executable, chk, d], capture_output=True, text=True, timeout=900)
        bad = [l for l in r.stdout.splitlines() if l.startswith(("FAIL", "ERROR")) or "unlabeled_hazards=['" in l]
        summary = [l for l in r.stdout.splitlines() if l.startswith("SUMMARY")]
        control = old is None or mid == "A7"
        detected = r.returncode != 0
        good = (not detected) if control else detected
        ok_all &= good
        lines.append("%s TEN%s %-30s %-52s checker_rc=%d %s -> %s" % (
            mid, rule, prog, desc, r.returncode, "(control, must pass)" if control else "(must be noticed)",
            "OK" if good else "MUTATION MISSED"))
        for l in bad[:3]:
            lines.append("      " + l.strip())
        for l in summary:
            lines.append("      " + l.strip())
    lines.append("ALL MUTATION TESTS BEHAVED AS EXPECTED" if ok_all else "SOME MUTATION TESTS MISBEHAVED")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
