"""``POST /admin/tournaments`` with an operator's blind structure (``levels``, docs/interfaces.md): created and
shown level by level; a broken one is a 422 naming its level and the rule, and nothing is stored."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.api.app import handler as api
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, create_through_the_api, memory  # noqa: F401

TID = "t-levels"


def create(context: FakeContext, clock: FrozenClock, **fields: Any) -> tuple[int, Any]:
    return create_through_the_api(context, clock, name="Own blinds", tournament_id=TID, **fields)


def test_a_tournament_created_with_its_own_levels_shows_them_level_by_level(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # When an operator creates a tournament with three levels of its own, 12 minutes unless a level says otherwise
    levels = [
        {"small_blind": 10, "big_blind": 20},
        {"small_blind": 20, "big_blind": 40, "ante": 5},
        {"small_blind": 30, "big_blind": 60, "ante": 60, "big_blind_ante": True, "minutes": 20},
    ]
    status, body = create(context, clock, levels=levels, level_minutes=12)
    assert (status, body["id"]) == (201, TID), body
    # Then its page gives those levels, numbered, with their antes and minutes
    page = answer_json(api(http_event("GET", f"/tournaments/{TID}"), context))
    assert page["levels"] == [
        {"level": 1, "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": False, "minutes": 12},
        {"level": 2, "small_blind": 20, "big_blind": 40, "ante": 5, "big_blind_ante": False, "minutes": 12},
        {"level": 3, "small_blind": 30, "big_blind": 60, "ante": 60, "big_blind_ante": True, "minutes": 20},
    ]


@pytest.mark.parametrize(
    ("levels", "error", "reason"),
    [
        (
            [{"small_blind": 50, "big_blind": 100}, {"small_blind": 25, "big_blind": 50}],
            "invalid_configuration",
            "level 2: the blinds go down (25/50 after 50/100)",
        ),
        ([{"small_blind": 50, "big_blind": 40}], "invalid_configuration", "level 1: the big blind (40) is below"),
        (
            [{"small_blind": 10, "big_blind": 20, "big_blind_ante": True}],
            "invalid_configuration",
            "level 1: a big-blind ante needs an ante",
        ),
        ([], "invalid_configuration", "at least one level"),
        ([{"small_blind": 10, "big_blind": "20"}], "invalid_request", "body.levels.0.big_blind"),
        ([{"small_blind": 10, "big_blind": 20, "minutes": 121}], "invalid_request", "body.levels.0.minutes"),
        ([{"small_blind": 10, "big_blind": 20, "blinds": 3}], "invalid_request", "body.levels.0.blinds"),
    ],
)
def test_a_broken_blind_structure_is_422_with_its_reason_and_nothing_is_stored(
    memory: Services, clock: FrozenClock, context: FakeContext, levels: list[Any], error: str, reason: str
) -> None:
    # When an operator sends a blind structure that breaks a rule
    status, body = create(context, clock, levels=levels)
    # Then it is a 422 whose message names the level and the rule, and no tournament exists
    assert (status, body["error"]) == (422, error), body
    assert reason in body["message"], body["message"]
    assert api(http_event("GET", f"/tournaments/{TID}"), context)["statusCode"] == 404
