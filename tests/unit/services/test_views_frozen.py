"""``views.view`` makes frozen dataclasses that behave as ``@dataclass(frozen=True)`` ones, without compiling their
methods (docs/performance.md, 'Cold start of the Lambda handlers')."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest
from pydantic import TypeAdapter
from tourney.services.views import LevelView, RecoveryStep, StandingRow


@dataclasses.dataclass(frozen=True)
class Row:
    """What a standings row would be as a plain frozen dataclass: the reference."""

    player: str
    chips: int
    table: str
    name: str = ""


def row(**changes: Any) -> StandingRow:
    return StandingRow(**{"player": "p1", "chips": 500, "table": "t1", **changes})


def test_a_view_is_a_dataclass_with_its_fields_in_order_and_their_defaults() -> None:
    assert StandingRow.__match_args__ == Row.__match_args__
    assert dataclasses.is_dataclass(StandingRow)
    fields = dataclasses.fields(StandingRow)
    assert [(f.name, f.default) for f in fields] == [(f.name, f.default) for f in dataclasses.fields(Row)]


def test_a_view_is_built_positionally_or_by_keyword_with_its_defaults() -> None:
    assert StandingRow("p1", 500, "t1") == row() == StandingRow("p1", 500, table="t1", name="")
    assert StandingRow("p1", 500, "t2", "Ann") == row(table="t2", name="Ann")


@pytest.mark.parametrize(
    ("args", "kwargs", "reason"),
    [
        (("p1", 500, "t1", "", "extra"), {}, "takes 4 arguments but 5 were given"),
        (("p1",), {"chips": 5}, "missing arguments: table"),
        (("p1",), {"player": "p", "chips": 5, "table": "t"}, "multiple values for argument 'player'"),
        ((), {"player": "p", "chips": 5, "table": "t", "seat": 3}, "unexpected keyword argument 'seat'"),
    ],
)
def test_a_view_refuses_the_arguments_a_dataclass_refuses(
    args: tuple[Any, ...], kwargs: dict[str, Any], reason: str
) -> None:
    with pytest.raises(TypeError) as refused:
        StandingRow(*args, **kwargs)
    with pytest.raises(TypeError):
        Row(*args, **kwargs)
    assert reason in str(refused.value)


def test_a_view_is_frozen() -> None:
    view = row()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.chips = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del view.chips
    assert dataclasses.replace(view, chips=1) == row(chips=1) and view.chips == 500


def test_a_view_compares_hashes_and_shows_as_a_dataclass_does() -> None:
    assert row() == row() and row() != row(chips=1) and hash(row()) == hash(row())
    assert row() != Row("p1", 500, "t1")  # another class, even with the same fields
    assert {row(), row(), row(chips=2)} == {row(), row(chips=2)}
    assert repr(row()) == repr(Row("p1", 500, "t1")).replace("Row(", "StandingRow(")
    with pytest.raises(TypeError):
        hash(StandingRow(["p1"], 500, "t1"))  # type: ignore[arg-type]  # hashable when its fields are, as a dataclass


def test_a_view_copies_and_pickles() -> None:
    view = LevelView(3, 50, 100, 10, True, 10)
    assert copy.deepcopy(view) == view == pickle.loads(pickle.dumps(view))


def test_a_frozen_dataclass_may_extend_a_view() -> None:
    @dataclasses.dataclass(frozen=True)
    class Step(RecoveryStep):
        more: bool = False

    step = Step("t", "payout", more=True)
    assert (step.tournament_id, step.outcome, step.more) == ("t", "payout", True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.more = False  # type: ignore[misc]


def test_pydantic_reads_and_writes_a_view_as_a_dataclass() -> None:
    adapter = TypeAdapter(LevelView)
    level = LevelView(1, 25, 50, 0, False, 10)
    assert adapter.dump_python(level) == dataclasses.asdict(level) == level.to_dict()
    assert adapter.validate_python(level.to_dict()) == level
    assert set(adapter.json_schema()["required"]) == {f.name for f in dataclasses.fields(LevelView)}
