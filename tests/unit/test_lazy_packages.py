"""``tourney.entrypoints.lazy_packages`` answers what Powertools' packages answer, without running their ``__init__``.

Each check runs in a fresh interpreter: the packages are registered lazily only when nothing imported them before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> object:
    done = subprocess.run(
        [sys.executable, "-c", f"import json, sys\nimport tourney.entrypoints.lazy_packages as lazy\n{code}"],
        env={"PYTHONPATH": str(ROOT / "layers"), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])


def test_every_name_listed_is_the_object_the_package_itself_exports() -> None:
    mismatched = run(
        "import importlib\n"
        "asked = {(p, n): getattr(importlib.import_module(p), n) for p, names in lazy.NAMES.items() for n in names}\n"
        "untouched = [p for p in lazy.NAMES if '__all__' in vars(sys.modules[p])]\n"
        "packages = {p: importlib.import_module(p) for p in lazy.NAMES}\n"
        "for p in packages.values(): p.__all__  # now the package's own __init__ runs\n"
        "print(json.dumps(untouched + [f'{p}.{n}' for (p, n), v in asked.items() if vars(packages[p])[n] is not v]))"
    )
    assert mismatched == []


def test_a_name_not_listed_comes_from_the_package_s_own_init() -> None:
    found = run(
        "from aws_lambda_powertools.event_handler import AppSyncResolver, content_types\n"
        "from aws_lambda_powertools.event_handler.appsync import AppSyncResolver as Defined\n"
        "print(json.dumps([AppSyncResolver is Defined, content_types.APPLICATION_JSON]))"
    )
    assert found == [True, "application/json"]


def test_the_api_gateway_resolver_loads_without_the_others() -> None:
    loaded = run(
        "from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response\n"
        "from aws_lambda_powertools.event_handler.openapi.params import Header\n"
        "print(json.dumps(sorted(m for m in sys.modules if 'appsync' in m or m.split('.')[0] == 'asyncio')))"
    )
    assert loaded == []


def test_a_package_imported_before_stays_as_it_is() -> None:
    whole = run(
        "sys.modules.pop(lazy.EVENT_HANDLER)\n"
        "import aws_lambda_powertools.event_handler as package\n"
        "lazy.install()\n"
        "print(json.dumps(sys.modules[lazy.EVENT_HANDLER] is package and '__all__' in vars(package)))"
    )
    assert whole is True


def test_the_queue_functions_batch_utilities_import_after_the_packages_are_registered() -> None:
    # Given the packages registered lazily (an HTTP function imported first, as in one test process), when Powertools'
    # batch utilities are imported: their SQS event module asks the data classes package for a name not listed
    found = run(
        "from aws_lambda_powertools.utilities.batch import SqsFifoPartialProcessor\n"
        "from aws_lambda_powertools.utilities.data_classes import S3Event\n"
        "from aws_lambda_powertools.utilities.data_classes.s3_event import S3Event as Defined\n"
        "print(json.dumps([SqsFifoPartialProcessor.__name__, S3Event is Defined]))"
    )
    # Then they import, and the name is the object the package's own __init__ would give
    assert found == ["SqsFifoPartialProcessor", True]
