"""Where a project hands an object's attribute to ``load_state_dict``, and whose attribute it is
(semantic/index/attribute_loads.py), and TEN402 reported at the binding that keeps a live state
dict on ``self`` when another module restores it (issue 43: early-stopping callbacks whose
snapshot a trainer loads, a base class whose subclasses' ``fit()`` loads it)."""
import os
import re
import shutil
import textwrap

from flake8_tensorcopy.semantic.index.attribute_loads import (
    Project, project_facts, read_file_facts, restores_of, subclasses,
)

from .conftest import FIXTURES, flake8, tensorcopy

LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<code>TEN\d{3})", re.M)


def facts(path, text):
    return read_file_facts(path, textwrap.dedent(text))


# ---- what one file says ----------------------------------------------------------------------
def test_loads_receivers_and_what_the_file_says_of_them():
    f = facts("/p/train.py", """\
        import stag
        from callbacks import EarlyStopping as ES, Checkpoint


        class Trainer(Base, metaclass=Meta):
            def fit(self):
                self.model.load_state_dict(self.best, strict=False)

        def run(model, cbs, other):
            es = stag.utils.EarlyStopping(patience=3)
            model.load_state_dict(es.best_state)
            for cb in cbs:
                if isinstance(cb, Checkpoint):
                    model.load_state_dict(
                        cb.best_state_dict)
                if type(cb).__name__ == "Checkpoint":
                    model.load_state_dict(cb.kept)
            model.load_state_dict(other.weights)
            model.load_state_dict(copy.deepcopy(es.best_state))
        """)
    got = {(x.line, x.receiver, x.attr, x.owner, x.classes) for x in f.loads}
    assert got == {
        (7, "self", "best", "Trainer", frozenset()),
        (11, "es", "best_state", "", frozenset({("utils", "EarlyStopping")})),
        (14, "cb", "best_state_dict", "", frozenset({("", "Checkpoint")})),
        (17, "cb", "kept", "", frozenset({("", "Checkpoint")})),
        (18, "other", "weights", "", frozenset()),  # nothing said of ``other``
    }
    assert dict(f.classes) == {"Trainer": ("Base",)}  # a keyword is no base
    assert {"callbacks", "EarlyStopping", "ES", "Checkpoint", "stag"} <= f.words


def test_a_receiver_said_nothing_of_names_the_classes_binding_the_attribute_on_self():
    f = facts("/p/stop.py", """\
        class Stopper:
            def step(self, model):
                self.best_state = model.state_dict()

        class Strict(Stopper):
            def step(self, model):
                self.best_state = None

        def restore(model, stopper, other):
            model.load_state_dict(stopper.best_state)
            model.load_state_dict(other.weights)
            other.weights = None
        """)
    keepers = {x.attr: x.keepers for x in f.loads}
    assert keepers == {"best_state": frozenset({"Stopper", "Strict"}),
                       "weights": None}  # (bound on another object too: not known)
    project = Project([f])
    assert [x.line for x in restores_of(project, "Stopper", "/p/stop.py", "best_state")] == [10]
    # another file's class of the same attribute: a receiver said nothing of is not its
    assert restores_of(project, "Stopper", "/p/other.py", "best_state") == []


def test_a_load_after_a_class_at_the_left_margin_is_no_method_of_it():
    f = facts("/p/m.py", """\
        class A:
            def f(self):
                pass


        def g(self):
            model.load_state_dict(self.best)
        """)
    assert [x.owner for x in f.loads] == [""]


# ---- whose attribute a load is ---------------------------------------------------------------
def _project():
    return Project([
        facts("/p/base.py", """\
            class BaseModel:
                def train(self):
                    self.best = self.model.state_dict()
            """),
        facts("/p/imputation/base.py", """\
            from ..base import BaseModel


            class BaseImputer(BaseModel):
                pass
            """),
        facts("/p/imputation/brits.py", """\
            from .base import BaseImputer


            class BRITS(BaseImputer):
                def fit(self):
                    self.model.load_state_dict(self.best)
            """),
        facts("/p/other.py", """\
            class Stranger(BaseImputer):  # its base is neither defined nor imported here
                def fit(self):
                    self.model.load_state_dict(self.best)
            """),
        facts("/p/scripts/run.py", """\
            from base import BaseModel
            from imputation.brits import BRITS
            import pkg.base


            def main(model, anything):
                m = BaseModel()
                model.load_state_dict(m.best)
                n = pkg.base.BaseModel()
                model.load_state_dict(n.best)
                model.load_state_dict(anything.best)
                b = BRITS()
                model.load_state_dict(b.best)
            """),
    ])


def test_subclasses_by_name_through_defining_or_importing_files():
    files = _project()
    assert subclasses(files, "BaseModel") == {"BaseImputer": "/p/imputation/base.py",
                                              "BRITS": "/p/imputation/brits.py"}


def test_restores_of_a_class_attribute_across_the_project():
    files = _project()
    got = [(os.path.basename(x.path), x.line) for x in restores_of(files, "BaseModel",
                                                                    "/p/base.py", "best")]
    # brits: ``self`` in a subclass; run.py: instances made by the class's name (imported from
    # its module), by a qualified name ending in its module, and an instance of a subclass;
    # not ``anything`` (nothing said of it) and not ``Stranger`` (its base is not linked)
    assert got == [("brits.py", 6), ("run.py", 8), ("run.py", 10), ("run.py", 13)]
    assert restores_of(files, "BaseModel", "/p/base.py", "other") == []


def test_a_same_named_class_of_another_module_is_not_linked():
    files = Project([facts("/p/a/callbacks.py", "class EarlyStopping:\n    pass\n"),
             facts("/p/train.py", """\
                 from tools import EarlyStopping


                 def run(model):
                     es = EarlyStopping()
                     model.load_state_dict(es.best)
                 """)])
    assert restores_of(files, "EarlyStopping", "/p/a/callbacks.py", "best") == []
    shadowed = facts("/p/run.py", """\
        import callbacks


        class EarlyStopping:
            pass


        es = EarlyStopping()
        model.load_state_dict(es.best)
        """)
    assert restores_of(Project([files.files["/p/a/callbacks.py"], shadowed]), "EarlyStopping", "/p/a/callbacks.py", "best") == []


def test_a_subclass_of_a_same_named_class_of_another_file_is_not_linked():
    """Twenty-fifth session: round 20's ``p04_ema_weights.py`` (``class WeightEMA``) was linked
    to round 12's ``SafeEMA``, which derives from a ``WeightEMA``-named class of round 14's own:
    a subclass counts only where its base is the class asked about (the base defined in the
    same file as it, or imported by name into the subclass's file)."""
    files = Project([
        facts("/p/a.py", """\
            class Keeper:
                def keep(self, model):
                    self.best = model.state_dict()
            """),
        facts("/p/b.py", """\
            class Keeper:
                pass


            class SafeKeeper(Keeper):
                def restore(self, model):
                    model.load_state_dict(self.best)
            """),
        facts("/p/c.py", """\
            from a import Keeper


            class Sub(Keeper):
                def restore(self, model):
                    model.load_state_dict(self.best)
            """)])
    assert subclasses(files, "Keeper", "/p/a.py") == {"Sub": "/p/c.py"}
    assert [(os.path.basename(x.path), x.line) for x in restores_of(
        files, "Keeper", "/p/a.py", "best")] == [("c.py", 6)]


def test_project_facts_read_the_linted_text_not_the_file_on_disk(tmp_path):
    (tmp_path / "cb.py").write_text("class C:\n    pass\n")
    (tmp_path / "run.py").write_text("es = C()\nmodel.load_state_dict(es.best)\n")
    own = (str(tmp_path / "cb.py"), "class C:\n    pass\n\n\nclass D(C):\n    pass\n")
    project = project_facts(str(tmp_path), own)
    by_path = {os.path.basename(p): project.file(p) for p in project.files}
    assert dict(by_path["cb.py"].classes) == {"C": (), "D": ("C",)}
    assert [(x.receiver, x.attr) for x in by_path["run.py"].loads] == [("es", "best")]


# ---- TEN402 through flake8 and the CLI -------------------------------------------------------
def test_reported_at_the_binding_through_flake8(tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(os.path.join(FIXTURES, "callback_project"), root)
    proc = flake8("--select", "TEN402", ".", cwd=str(root))
    got = {(os.path.normpath(m["path"]), int(m["line"])) for m in LINE.finditer(proc.stdout)}
    assert got == {("callbacks.py", 17), ("callbacks.py", 57), ("base_model.py", 23)}, \
        proc.stdout + proc.stderr
    assert "load_state_dict(stopper.best_state)` in trainers/loop.py, line 20" in proc.stdout


def test_a_results_cache_sees_the_restoring_file_change(tmp_path):
    root = tmp_path / "proj"
    shutil.copytree(os.path.join(FIXTURES, "callback_project"), root)

    def lines():
        proc = tensorcopy("check", "--select", "TEN402", "--output-format", "concise",
                          "base_model.py", cwd=str(root))
        return {int(m["line"]) for m in LINE.finditer(proc.stdout)}

    assert lines() == {23}
    # the result depends on every file of the project: stored with no dependency list, it
    # would be served again here
    sub = root / "trainers" / "subclass.py"
    sub.write_text(sub.read_text().replace("self.model.load_state_dict(self.best_model_dict)",
                                           "print(self.best_model_dict)"))
    assert lines() == set()


def test_the_files_of_one_run_share_one_reading_of_the_project(tmp_path, monkeypatch):
    """Every file below keeps a live state dict on ``self`` that its own analysis never sees
    restored, so each asks the project; the project is read from disk once for all of them
    (within ``_TTL``), and each question is then dictionary look-ups."""
    from flake8_tensorcopy import lint_source
    from flake8_tensorcopy.semantic.index import attribute_loads

    (tmp_path / "setup.cfg").write_text("[metadata]\nname = p\n")
    sources = {}
    for i in range(6):
        sources[f"cb{i}.py"] = textwrap.dedent(f"""\
            class Keeper{i}:
                def keep(self, model):
                    self.best{i} = model.state_dict()
            """)
    sources["run.py"] = "".join(f"from cb{i} import Keeper{i}\n" for i in range(6)) + "".join(
        f"k{i} = Keeper{i}()\nmodel.load_state_dict(k{i}.best{i})\n" for i in range(6))
    for name, text in sources.items():
        (tmp_path / name).write_text(text)
    reads = []
    real = attribute_loads._read
    monkeypatch.setattr(attribute_loads, "_read", lambda root: reads.append(root) or real(root))
    monkeypatch.setattr(attribute_loads, "_TTL", 3600.0)
    attribute_loads._PROJECTS.pop(str(tmp_path), None)
    got = []
    for i in range(6):
        path = str(tmp_path / f"cb{i}.py")
        got += [(i, d.line, d.code) for d in lint_source(sources[f"cb{i}.py"], path)]
    assert got == [(i, 3, "TEN402") for i in range(6)]
    assert len(reads) == 1, reads
