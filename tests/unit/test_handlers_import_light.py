"""A handler's module imports its routes and models, never the services' implementations, the adapters or the engine.

Those are built on the first invocation (``tourney.entrypoints.wiring``): importing them at module level costs
each cold start about 100 ms more (docs/performance.md, 'Cold start of the Lambda handlers').
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FUNCTIONS = sorted(p.parent.name for p in (ROOT / "functions").glob("*/app.py"))
#: What a route's declaration needs: the commands and answers it names, the messages it reads.
DECLARED = {"tourney.services", "tourney.services.commands", "tourney.services.views", "tourney.services.messages"}
HEAVY = ("tourney.adapters", "tourney.domain.table", "tourney.domain.hand", "tourney.domain.evaluator", "pynamodb")


def loaded_at_import(function: str) -> list[str]:
    folder = ROOT / "functions" / function
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "POWERTOOLS_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT / "layers")])
    done = subprocess.run(
        [sys.executable, "-c", "import sys, json, app; print(json.dumps(sorted(sys.modules)))"],
        cwd=folder, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    modules: list[str] = json.loads(done.stdout.splitlines()[-1])
    return modules


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_handler_imports_no_service_implementation_adapter_or_engine(function: str) -> None:
    modules = loaded_at_import(function)
    services = [m for m in modules if m.startswith("tourney.services") and m not in DECLARED]
    heavy = [m for m in modules if m.startswith(HEAVY)]
    assert services == [] and heavy == []


#: What the HTTP functions' import leaves out: Powertools' other resolvers, the event classes they read, and what
#: AppSync's resolver imports (``tourney.entrypoints.lazy_packages``).
OTHER_RESOLVERS = (
    "aws_lambda_powertools.event_handler.appsync",
    "aws_lambda_powertools.event_handler.bedrock_agent",
    "aws_lambda_powertools.event_handler.events_appsync",
    "aws_lambda_powertools.event_handler.graphql_appsync",
    "aws_lambda_powertools.event_handler.vpc_lattice",
    "aws_lambda_powertools.utilities.data_classes.appsync",
    "aws_lambda_powertools.utilities.data_classes.s3_event",
    "asyncio",
    "ssl",
    "subprocess",
)


@pytest.mark.parametrize("function", ["admin", "api"])
def test_an_http_handler_imports_only_the_api_gateway_resolver(function: str) -> None:
    modules = loaded_at_import(function)
    assert "aws_lambda_powertools.event_handler.api_gateway" in modules
    assert [m for m in modules if m.startswith(OTHER_RESOLVERS)] == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_no_handler_imports_the_tournament_structure_at_a_cold_start(function: str) -> None:
    # The create route names the formats (``tourney.domain.formats``), not the structures with the prize tables and
    # the ledger: those load when a tournament is created.
    modules = loaded_at_import(function)
    structure = ("tourney.domain.structure", "tourney.domain.prizes", "tourney.domain.ledger")
    assert [m for m in modules if m.startswith(structure)] == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_no_handler_reads_package_metadata_at_a_cold_start(function: str) -> None:
    # pydantic's plugin loader would import it to look for plugins the functions do not have (pydantic_plugins).
    assert "importlib.metadata" not in loaded_at_import(function)
