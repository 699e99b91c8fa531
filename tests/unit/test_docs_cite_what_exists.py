"""The documents cite files and tests that exist: a newcomer who follows a reference in docs/ finds it.

Checked: every backticked path from the repository's top level (``layers/...``, ``tests/...``, ``infra/...``), and
every backticked test (``test_x.py::test_name``, or ``::test_name`` after a file on the same line) names a test file
that exists and a test defined in it.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [*sorted(ROOT.glob("docs/*.md")), ROOT / "README.md"]
TOP_LEVEL = ("layers/", "tests/", "functions/", "infra/", "bench/", "docs/", "web/", ".ci/")
ELSEWHERE = frozenset({"test_services.py", "pokerkit/tests/test_rules.py"})
"""Files of the model codebases docs/architecture.md compares ours with (cosmicpython's, pokerkit's)."""
TOKEN = re.compile(r"`([^`\s]+)`")


def _test_files() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path in ROOT.glob("tests/**/*.py"):
        found.setdefault(path.name, []).append(path)
    return found


def _missing_paths() -> list[str]:
    missing = []
    for document in DOCUMENTS:
        for token in TOKEN.findall(document.read_text()):
            path = token.split("::")[0].rstrip(",.;:")
            if path.startswith(TOP_LEVEL) and not any(c in path for c in "<{*") and not (ROOT / path).exists():
                missing.append(f"{document.name}: {path}")
    return missing


def _defines(files: list[Path], test: str) -> bool:
    return any(re.search(rf"def {re.escape(test)}\b", f.read_text()) for f in files)


def _missing_tests() -> list[str]:
    files_by_name = _test_files()
    missing = []
    for document in DOCUMENTS:
        for line in document.read_text().splitlines():
            cited: list[Path] | None = None
            for token in TOKEN.findall(line):
                path, _, test = token.partition("::")
                if path.endswith(".py") and Path(path).name.startswith("test_"):
                    if path in ELSEWHERE:
                        cited = None
                        continue
                    named = files_by_name.get(Path(path).name, [])
                    cited = [f for f in named if str(f).endswith(path)] or named
                    if not cited:
                        missing.append(f"{document.name}: {path}")
                elif path:
                    continue
                test = test.split("[")[0].rstrip(",.;:")
                if test.startswith("test_") and cited and not _defines(cited, test):
                    missing.append(f"{document.name}: {token}")
    return missing


def test_every_path_the_documents_cite_exists() -> None:
    assert _missing_paths() == []


def test_every_test_the_documents_cite_exists_where_they_say() -> None:
    assert _missing_tests() == []
