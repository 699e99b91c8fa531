"""Powertools' event handler and event classes without their packages' ``__init__``: the HTTP functions import only
the modules they use (docs/performance.md, 'Cold start of the Lambda handlers').

``aws_lambda_powertools.event_handler``'s ``__init__`` imports every resolver Powertools has (AppSync's, with
asyncio, ssl and subprocess; Bedrock's, VPC Lattice's...) and ``aws_lambda_powertools.utilities.data_classes``'s
every event class (some 45 modules), and importing any module of theirs runs it first. Imported before them,
this module puts each package in ``sys.modules`` as its ``__init__`` would, minus the code: a submodule is
imported as usual, and a name asked of the package itself (``from aws_lambda_powertools.event_handler import
Response``) is taken from the module that defines it (PEP 562): the one listed here, else the one the package's
``__init__`` imports it from (read, not run: Powertools' own modules ask the package for names while it is being
imported, ``sqs_event`` for ``S3Event``, and running the ``__init__`` then would import them in a circle); a name
defined by the ``__init__`` itself runs it. Importing this module installs them (the HTTP functions import it first).

``tests/unit/test_lazy_packages.py`` checks every name listed against the package's own, and that the HTTP
handlers' import leaves the other resolvers, their events and asyncio out.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

EVENT_HANDLER = "aws_lambda_powertools.event_handler"
DATA_CLASSES = "aws_lambda_powertools.utilities.data_classes"

NAMES: Mapping[str, Mapping[str, str]] = {
    EVENT_HANDLER: {
        "APIGatewayHttpResolver": "api_gateway",
        "APIGatewayRestResolver": "api_gateway",
        "ApiGatewayResolver": "api_gateway",
        "ALBResolver": "api_gateway",
        "CORSConfig": "api_gateway",
        "Response": "api_gateway",
        "Depends": "depends",
        "DependencyResolutionError": "depends",
        "Request": "request",
    },
    DATA_CLASSES: {
        "ALBEvent": "alb_event",
        "APIGatewayProxyEvent": "api_gateway_proxy_event",
        "APIGatewayProxyEventV2": "api_gateway_proxy_event",
        "BedrockAgentEvent": "bedrock_agent_event",
        "LambdaFunctionUrlEvent": "lambda_function_url_event",
        "VPCLatticeEvent": "vpc_lattice",
        "VPCLatticeEventV2": "vpc_lattice",
    },
}
"""Per package, the names its ``__init__`` exports that the HTTP functions' modules (and Powertools' own modules they
import) ask of it, and the submodule each comes from."""


def install() -> None:
    """Register both packages without running their ``__init__`` (a package already imported stays as it is)."""
    for package, names in NAMES.items():
        if package not in sys.modules:
            sys.modules[package] = _lazy(package, names)


def _lazy(package: str, names: Mapping[str, str]) -> ModuleType:
    spec = importlib.util.find_spec(package)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(package)
    module = importlib.util.module_from_spec(spec)
    ran: list[bool] = []

    def run_init() -> None:
        if not ran:
            ran.append(True)
            spec.loader.exec_module(module)  # type: ignore[union-attr]  # checked above

    def __getattr__(name: str) -> Any:
        defined_in = names.get(name) or _imported_from(spec.origin).get(name)
        if defined_in is not None:
            value = getattr(importlib.import_module(f"{package}.{defined_in}"), name)
        elif name == "__all__" or (not name.startswith("__") and not _is_submodule(package, name)):
            run_init()  # a name not listed: the package's own ``__init__`` defines it
            value = module.__dict__.get(name, _MISSING)
        else:
            value = _MISSING  # a submodule not imported yet (the import system then imports it) or a dunder
        if value is _MISSING:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(module, name, value)
        return value

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


_MISSING: Any = object()


@functools.cache
def _imported_from(init: str | None) -> dict[str, str]:
    """Name -> submodule, for each ``from .submodule import Name`` of a package's ``__init__`` (its source, parsed)."""
    import ast  # only when a name is not listed: never on the HTTP functions' own imports

    if init is None:
        return {}
    found: dict[str, str] = {}
    for node in ast.parse(Path(init).read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.update({alias.asname or alias.name: node.module for alias in node.names})
    return found


def _is_submodule(package: str, name: str) -> bool:
    return importlib.util.find_spec(f"{package}.{name}") is not None


install()
