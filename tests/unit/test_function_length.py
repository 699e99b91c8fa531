"""No product function is longer than 60 lines: the domain, the services, the entry points, the adapters, the
simulation (``layers/``) and the Lambda handlers (``functions/``). The CDK constructs (``infra/``), the tests and
the benchmarks are not product code here.

A function's length is its ``def`` line to its last line, docstring and decorators' lines after the ``def``
included; a nested function counts for itself and inside the function that holds it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("layers", "functions")
MOST_LINES = 60

# Functions allowed over the limit, at most at the length given, each with why it is not split.
ALLOWED: dict[str, int] = {}


def function_lengths(root: Path) -> dict[str, int]:
    """Every function and method under ``root``'s product folders, by ``path::Qualified.name``: its lines."""
    lengths: dict[str, int] = {}
    for folder in PRODUCT:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            _collect(tree, f"{path.relative_to(root).as_posix()}::", lengths)
    return lengths


def _collect(node: ast.AST, prefix: str, lengths: dict[str, int]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{child.name}"
            lengths[name] = (child.end_lineno or child.lineno) - child.lineno + 1
            _collect(child, f"{name}.", lengths)
        elif isinstance(child, ast.ClassDef):
            _collect(child, f"{prefix}{child.name}.", lengths)
        else:
            _collect(child, prefix, lengths)


def too_long(root: Path) -> dict[str, int]:
    """The product functions over ``MOST_LINES`` that the allow-list does not cover."""
    return {
        name: lines
        for name, lines in function_lengths(root).items()
        if lines > MOST_LINES and lines > ALLOWED.get(name, MOST_LINES)
    }


def test_no_product_function_is_longer_than_60_lines() -> None:
    # Given every function in layers/ and functions/
    # Then none is longer than 60 lines, but for those allowed (and none longer than allowed)
    assert too_long(ROOT) == {}, "split these into small, well-named functions"


def test_every_function_allowed_over_the_limit_still_needs_it() -> None:
    # Given the functions allowed over 60 lines
    lengths = function_lengths(ROOT)
    # Then each still exists and is still over the limit: an entry split or gone is taken off the list
    assert {name: lengths.get(name) for name in ALLOWED if lengths.get(name, 0) <= MOST_LINES} == {}


def test_the_measure_counts_a_method_and_a_nested_function(tmp_path: Path) -> None:
    # Given a product module with a 61-line method holding a nested function
    body = "\n".join(f"        x{i} = {i}" for i in range(58))
    source = f"class Desk:\n    def deal(self) -> None:\n        def inner() -> None:\n            pass\n{body}\n"
    (tmp_path / "layers").mkdir()
    (tmp_path / "functions").mkdir()
    (tmp_path / "layers" / "desk.py").write_text(source, encoding="utf-8")
    # When it is measured
    lengths = function_lengths(tmp_path)
    # Then the method is 61 lines and too long, its nested function 2
    assert lengths == {"layers/desk.py::Desk.deal": 61, "layers/desk.py::Desk.deal.inner": 2}
    assert too_long(tmp_path) == {"layers/desk.py::Desk.deal": 61}
