#!/usr/bin/env python
"""Mutation test for check.py: flip .item()/.detach()/no_grad in copies of the programs and
confirm the run-time verdict on the mutated labeled line flips (or, for the control mutant whose
value never carried a graph, does not)."""
import json
import os
import shutil
import subprocess
import sys

SRC = "/tmp/r24/ten501"
HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.path.join(HERE, "mutants")

# (id, target, file inside target dir, old text, new text, lines-to-watch (needle), expected verdict after)
MUTANTS = [
    ("M01", "p02_epoch_running_totals.py", None, "epoch_loss_val += loss.item()  # ok", "epoch_loss_val += loss  # ok", "KEPT"),
    ("M02", "p02_epoch_running_totals.py", None, "epoch_loss += loss  # expect: TEN501", "epoch_loss += loss.detach()  # expect: TEN501", "not-kept"),
    ("M03", "p01_mlp_average_meter.py", None, "losses.update(loss, images.size(0))  # expect: TEN501", "losses.update(loss.item(), images.size(0))  # expect: TEN501", "not-kept"),
    ("M04", "p01_mlp_average_meter.py", None, "top1.update(acc1.item(), images.size(0))  # ok", "top1.update(acc1, images.size(0))  # ok", "not-kept"),
    ("M05", "p15_ema_weights.py", None, "(1 - decay) * p.detach()  # ok", "(1 - decay) * p  # ok", "KEPT"),
    ("M06", "p20_partial_and_closures.py", None, "add_f(loss.item())  # ok", "add_f(loss)  # ok", "KEPT"),
    ("M07", "p22_coroutine_meter.py", None, "avg_ok.send(loss.item())  # ok", "avg_ok.send(loss)  # ok", "KEPT"),
    ("M08", "trainlib", "engine.py", 'history.record("loss", loss)  # expect: TEN501', 'history.record("loss", loss.detach())  # expect: TEN501', "not-kept"),
    ("M09", "p39_conversion_traps.py", None, "detached.append(loss.detach())  # ok", "detached.append(loss.detach)  # ok", "KEPT"),
    ("M10", "p16_running_stats_forward.py", None, "self.momentum * var.detach()  # ok", "self.momentum * var  # ok", "KEPT"),
    ("M11", "p12_lightning_like_module.py", None, 'outputs.append({"loss": loss.detach()})  # ok', 'outputs.append({"loss": loss})  # ok', "KEPT"),
    ("M12", "p17_eval_without_no_grad.py", None, "@torch.no_grad()\ndef evaluate_fixed", "def evaluate_fixed", "KEPT"),
    ("M13", "p35_nanogpt_estimate_loss.py", None, "losses[k] = loss  # expect: TEN501", "losses[k] = loss.item()  # expect: TEN501", "not-kept"),
    ("M14", "rlkit", "agent.py", 'stats.running_mean("entropy", entropy)  # expect: TEN501', 'stats.running_mean("entropy", entropy.item())  # expect: TEN501', "not-kept"),
    ("M15", "p06_distillation_bank.py", None, "kd_total += loss.detach()  # ok", "kd_total += loss  # ok", "KEPT"),
    ("M16", "gankit", "trainer.py", 'g_score.detach().mean().view(1)])  # ok', 'g_score.mean().view(1)])  # ok', "KEPT"),
]


def run(d, target):
    p = subprocess.run([sys.executable, os.path.join(HERE, "check.py"), "--dir", d, "--json",
                        os.path.join(d, "res.json"), "--quiet", target],
                       capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    return json.load(open(os.path.join(d, "res.json")))[0]


def main():
    base = {}
    for r in json.load(open(os.path.join(HERE, "results.json"))):
        for l in r["labels"]:
            base[(l["file"], l["line"])] = l["observed"]
    shutil.rmtree(WORK, ignore_errors=True)
    out = ["mutation tests of check.py (original verdicts from results.json)", ""]
    ok_all = True
    for mid, target, inner, old, new, want in MUTANTS:
        d = os.path.join(WORK, mid)
        os.makedirs(d)
        src = os.path.join(SRC, target)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(d, target))
            rel = os.path.join(target, inner)
        else:
            shutil.copy(src, d)
            rel = target
        path = os.path.join(d, rel)
        text = open(path).read()
        assert text.count(old) == 1, (mid, old)
        open(path, "w").write(text.replace(old, new))
        # mutated labeled lines: every labeled line whose text changed
        orig_lines = text.splitlines()
        new_lines = open(path).read().splitlines()
        res = run(d, target)
        watched = []
        for l in res["labels"]:
            if l["file"] != rel:
                continue
            src_line = new_lines[l["line"] - 1]
            touched = any(part.strip() and part.strip() in src_line for part in new.splitlines() if "#" in part)
            if mid == "M12":
                touched = l["line"] in (25, 26)  # the two labeled lines inside evaluate_fixed after the decorator line is removed
            if touched:
                watched.append(l)
        if not watched:
            out.append("%s %s: NO LABELED LINE FOUND" % (mid, rel))
            ok_all = False
            continue
        for l in watched:
            delta = 0 if mid != "M12" else 1  # decorator removal shifts lines up by one
            before = base.get((rel if not os.path.isdir(src) else rel, l["line"] + delta))
            good = l["observed"] == want
            ok_all &= good
            out.append("%s %-5s %-32s line %3d label=%-6s before=%-8s after=%-8s want=%-8s %s   [%s]" % (
                mid, "OK" if good else "WRONG", rel, l["line"], l["label"], before, l["observed"], want,
                "FLIPPED" if before != l["observed"] else "unchanged (control)", l["src"][:80]))
        out.append("     mutation: %r -> %r" % (old, new))
    out.append("")
    out.append("all mutants behaved as expected: %s" % ok_all)
    text = "\n".join(out) + "\n"
    open(os.path.join(HERE, "mutation_results.txt"), "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
