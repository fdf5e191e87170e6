"""The runtime twin: the rules' patterns observed while the user's own code runs.

``watcher`` (imports torch) records each pattern through ``torch.overrides.TorchFunctionMode``;
``report`` turns the sites into the linter's own ``Diagnostic``/``FileResult`` objects and puts
them beside ``check``'s static diagnostics; ``command`` is ``tensorcopy trace``; ``pytest_plugin``
is the ``pytest --tensorcopy`` plugin; ``parts`` merges the reports of a distributed job's ranks.

Importing this package does not import torch (the pytest plugin is loaded by every pytest run in
an environment where this package is installed); only ``watcher`` does. Nothing in the linter or
the fixer imports this package.
"""
