"""The domain imports nothing from AWS (docs/architecture.md, 'Avoid')."""

import importlib
import pkgutil
import subprocess
import sys

import tourney.domain

FORBIDDEN = ("boto3", "botocore", "pynamodb", "aws_lambda_powertools", "moto")


def test_domain_modules_import_no_aws_library() -> None:
    # Given every module under tourney.domain, imported in a fresh interpreter
    names = [m.name for m in pkgutil.walk_packages(tourney.domain.__path__, "tourney.domain.")]
    code = (
        "import importlib, sys\n"
        f"for n in {names!r}: importlib.import_module(n)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    # When they are all loaded
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # Then no AWS library came with them
    assert out.strip() == "[]"
    assert all(importlib.util.find_spec(n) for n in names)
