"""pydantic's plugin discovery left out of a function's cold start.

Whenever pydantic builds a validator it asks ``pydantic.plugin._loader.get_plugins`` for plugins, and that module
imports ``importlib.metadata`` at its top (with it ``email``, ``zipfile``, ``csv`` and ``socket``): about a tenth of
a handler's cold import (docs/performance.md). The functions ship no pydantic plugin and run with
``PYDANTIC_DISABLE_PLUGINS=__all__`` (``infra/wiring.py``), with which that loader answers "no plugins" without
looking. ``install`` registers a loader that gives the same answer without the import; the package
``tourney.entrypoints`` installs it before any model of ours or of Powertools is built.

The loader is pydantic's private module, so pydantic is pinned exactly (pyproject.toml), and
``tests/unit/test_pydantic_plugins.py`` checks that pydantic still asks that module, and that pydantic's own loader
answers the same in the functions' environment.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

LOADER = "pydantic.plugin._loader"


def get_plugins() -> Iterable[Any]:
    """No plugins: what pydantic's loader answers with ``PYDANTIC_DISABLE_PLUGINS=__all__``."""
    return ()


def install() -> None:
    """Register the loader, unless pydantic's own was imported already (it then stays)."""
    if LOADER not in sys.modules:
        loader = ModuleType(LOADER, get_plugins.__doc__)
        loader.get_plugins = get_plugins  # type: ignore[attr-defined]
        sys.modules[LOADER] = loader
