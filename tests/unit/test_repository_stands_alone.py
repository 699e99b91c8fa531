"""The repository carries its own specification: nothing in it points outside it, and nothing narrates its history.

A person who clones the repository reads the rules in ``docs/rules.md``, the public interfaces in
``docs/interfaces.md`` (and ``docs/openapi.json``) and the design in ``docs/architecture.md``. So no tracked
file may point at a sibling folder of the repository, nor cite a specification document by a name the
repository does not hold. And a docstring, a comment or a doc says what the product does, not which work
item built it or which numbered defect it fixed: history lives in git.

Every tracked file is checked, the figures in ``docs/performance.md``, ``bench/capacity.py``,
``bench/command.py`` and ``layers/tourney/simulation/aws/`` included.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Collection
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

OUTSIDE_PATH = re.compile(r"\.\./" + "shared")
"""A path into the folder beside the repository that once held the specification."""

CITED_DOCUMENT = re.compile(r"\b(?:RULES|CONTRACT|DESIGN|STYLE)\.md\b")
"""A specification document cited by name: allowed only when the repository holds a file of that name."""

WORK_LOG = re.compile(r"\b(?:issues?|defects?|sessions?|work[ -]items?)\s+#?\d+", re.IGNORECASE)
"""Work-log wording: a work item, a defect or a working session named by its number."""


def tracked_files() -> list[Path]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    return [REPO / name for name in listing.decode().split("\0") if name]


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file or one that is gone (deleted but not yet committed)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def offending_lines(pattern: re.Pattern[str], allowed: Collection[str] = ()) -> list[str]:
    """``path:line: text`` of every line of a tracked text file (this one aside) where ``pattern`` matches."""
    here = Path(__file__).resolve()
    found: list[str] = []
    for path in tracked_files():
        if path.resolve() == here:
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if any(match.group(0) not in allowed for match in pattern.finditer(line)):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()[:160]}")
    return found


def report(found: list[str], what: str) -> str:
    return f"{len(found)} lines {what}:\n" + "\n".join(found)


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout")
def test_nothing_in_the_repository_points_at_a_path_outside_it() -> None:
    # Given every tracked file
    # When we look for a path into the folder beside the repository
    found = offending_lines(OUTSIDE_PATH)
    # Then there is none: the specification is in docs/
    assert not found, report(found, "point outside the repository (cite docs/rules.md, docs/interfaces.md, ...)")


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout")
def test_every_specification_document_cited_is_in_the_repository() -> None:
    # Given the names of the files the repository holds
    held = {path.name for path in tracked_files()}
    # When we look for a specification document cited by name (CITED_DOCUMENT)
    found = offending_lines(CITED_DOCUMENT, allowed=held)
    # Then each one cited is a file of the repository (none is: the project's own docs replace them)
    assert not found, report(found, "cite a document the repository does not hold (cite docs/rules.md, ...)")


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="not a git checkout")
def test_no_file_narrates_work_items_defects_or_sessions_by_number() -> None:
    # Given every tracked file
    # When we look for a work item, a defect or a session named by its number
    found = offending_lines(WORK_LOG)
    # Then there is none: a test is named after the rule it proves, a doc says what the product does
    assert not found, report(found, "narrate the work log (say what the product does; history lives in git)")


def test_the_work_log_pattern_finds_numbered_items_and_leaves_rules_alone() -> None:
    # Given lines that narrate the work log, and lines that only cite rules and sections
    # (built from word and number, so that this file does not itself narrate)
    numbered = [("(issue", "9, 'Hardening')"), ("issues", "2 and 3"), ("Defect", "3: fees"), ("session", "7's end")]
    narrating = [f"{word} {rest}" for word, rest in [*numbered, ("work item", "4")]]
    citing = ["docs/rules.md, rule 17.6", "section 12", "a player's session", "the issue of a prize"]
    # Then the pattern finds every one of the first and none of the second
    assert all(WORK_LOG.search(line) for line in narrating)
    assert not any(WORK_LOG.search(line) for line in citing)
