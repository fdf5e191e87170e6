"""Nothing expensive at import: flake8 imports every plugin on every run (an editor: on every
save), so importing the plugin must not import libcst or the engine; they load only when a file
passes the text and ``ast`` pre-filters."""
import json
import subprocess
import sys

HEAVY = ("libcst", "flake8_tensorcopy.engine", "flake8_tensorcopy.inference",
         "flake8_tensorcopy.rules")

SCRIPT = r"""
import json, sys
import flake8_tensorcopy.plugin
seen = {"import": sorted(m for m in sys.modules if m.split(".")[0] == "libcst" or m in HEAVY)}
from flake8.main.application import Application
for name, path in [("no_candidate", sys.argv[1]), ("candidate", sys.argv[2])]:
    app = Application()
    app.run(["--jobs", "1", "--select", "TEN", path])
    seen[name] = sorted(m for m in sys.modules if m.split(".")[0] == "libcst" or m in HEAVY)
    seen[name + "_results"] = app.result_count
print(json.dumps(seen))
"""


def test_plugin_import_and_a_file_without_candidates_load_no_libcst(tmp_path):
    plain = tmp_path / "plain.py"
    # text that passes the regex (``.data``, ``torch.tensor(``) but not the ast scan
    plain.write_text("import torch\n\nx = torch.tensor([1, 2])\n\n\nclass D:\n"
                     "    def f(self):\n        return self.data\n")
    flagged = tmp_path / "flagged.py"
    flagged.write_text("import torch\n\n\ndef f(t: torch.Tensor):\n    return torch.tensor(t)\n")
    res = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + SCRIPT, str(plain),
                          str(flagged)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    seen = json.loads(res.stdout.strip().splitlines()[-1])
    assert seen["import"] == []
    assert seen["no_candidate"] == [] and seen["no_candidate_results"] == 0
    # the same process does load them for a file that needs them (the check can fail)
    assert "libcst" in seen["candidate"] and "flake8_tensorcopy.engine" in seen["candidate"]
    assert seen["candidate_results"] == 1
