"""The functions' stand-in for pydantic's plugin loader (``tourney.entrypoints.pydantic_plugins``) is pydantic's own
answer in their environment, and pydantic still asks it: a pydantic that changed either fails here."""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pydantic.plugin._schema_validator as schema_validator
from tourney.entrypoints import pydantic_plugins

from infra.wiring import COMMON_ENVIRONMENT


def test_pydantic_asks_the_loader_module_for_plugins_when_it_builds_a_validator() -> None:
    assert "from ._loader import get_plugins" in inspect.getsource(schema_validator.create_schema_validator)
    assert f"{schema_validator.__package__}._loader" == pydantic_plugins.LOADER


def test_pydantics_own_loader_finds_no_plugin_in_the_functions_environment() -> None:
    # pydantic's loader, from its file (this process may hold the stand-in), with the functions' variables.
    spec = importlib.util.find_spec("pydantic.plugin")
    assert spec is not None and spec.submodule_search_locations
    loader = Path(next(iter(spec.submodule_search_locations))) / "_loader.py"
    code = (
        "import importlib.util, json; "
        f"spec = importlib.util.spec_from_file_location('pydantic.plugin._loader', {str(loader)!r}); "
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); "
        "print(json.dumps(list(m.get_plugins())))"
    )
    env = {**os.environ, **COMMON_ENVIRONMENT}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == list(pydantic_plugins.get_plugins()) == []
