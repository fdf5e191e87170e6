"""Pre-imports torch once, then forks a fresh child per job (speeds up reruns).

Protocol: one JSON object per stdin line {"cwd", "argv": [...], "out", "err", "timeout"};
answers one JSON line {"rc"}.  argv is ["-m", "pkg.main"] or ["script.py"].
"""
import json
import os
import runpy
import signal
import sys
import time
import traceback

import numpy  # noqa: F401
import torch  # noqa: F401
import torch.nn  # noqa: F401
import torch.func  # noqa: F401


def _warm_up():
    """Trigger torch's lazy imports (optimizers pull in dynamo/sympy) once, in the parent."""
    import io
    m = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.BatchNorm1d(3))
    for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop):
        o = cls(m.parameters(), lr=0.1)
        m(torch.randn(4, 3)).sum().backward()
        o.step()
        o.load_state_dict(o.state_dict())
    torch.func.functional_call(m, dict(m.named_parameters()), (torch.randn(4, 3),))
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    buf.seek(0)
    torch.load(buf)
    torch.nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 1]))


_warm_up()


def child(job):
    os.chdir(job["cwd"])
    for fd, path in ((1, job["out"]), (2, job["err"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    code = 0
    try:
        argv = job["argv"]
        if argv[0] == "-m":
            sys.argv = [argv[1]] + argv[2:]
            sys.path.insert(0, job["cwd"])
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            script = os.path.join(job["cwd"], argv[0])
            sys.argv = [script] + argv[1:]
            sys.path.insert(0, os.path.dirname(script))
            runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # noqa: BLE001
        traceback.print_exc()
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def main():
    for line in sys.stdin:
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:
            child(job)
        t0 = time.time()
        rc = None
        while True:
            wpid, status = os.waitpid(pid, os.WNOHANG)
            if wpid:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.time() - t0 > job.get("timeout", 60):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                rc = 124
                break
            time.sleep(0.01)
        sys.stdout.write(json.dumps({"rc": rc}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
