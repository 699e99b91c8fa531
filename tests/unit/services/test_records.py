"""``evolve``: the records' cheap ``dataclasses.replace`` (the play path copies a table record per write)."""

import dataclasses
from datetime import UTC, datetime

import pytest
from tourney.domain.table import Table
from tourney.services.records import TableRecord, evolve

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def record() -> TableRecord:
    return TableRecord(tournament_id="t", table_id="1", table=Table(1, 9), level=3, version=4)


def test_evolve_changes_what_it_is_told_and_leaves_the_original_alone() -> None:
    # Given a stored table record
    before = record()
    # When a copy is made with a new time and version
    after = evolve(before, updated_at=NOW, version=5)
    # Then the copy is what dataclasses.replace makes, and the original is unchanged
    assert after == dataclasses.replace(before, updated_at=NOW, version=5)
    assert type(after) is TableRecord and after.table is before.table
    assert (before.updated_at, before.version) == (None, 4)


def test_evolve_refuses_a_name_that_is_not_a_field() -> None:
    # Given a stored table record
    before = record()
    # When a copy names a field that does not exist, then it is refused and nothing changes
    with pytest.raises(TypeError, match="no field \\['versoin'\\]"):
        evolve(before, versoin=5)
    assert (before.updated_at, before.version, before.level) == (None, 4, 3)
