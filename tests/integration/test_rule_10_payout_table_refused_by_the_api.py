"""Rule 10 through the operators' HTTP function: a payout table the payout rule refuses is a 422 at creation.

Accepted, such a table broke the tournament's page (500) and every settlement
of a bust-out after it, compensation included: the pool was locked for good.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.api.app import handler as api
from tests.support.events import FakeContext, http_event
from tests.support.functions import clock, context, create_through_the_api, memory  # noqa: F401


def create(context: FakeContext, clock: FrozenClock, **fields: Any) -> tuple[int, Any]:
    return create_through_the_api(context, clock, name="Odd payout", tournament_id="t-odd", **fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"payout_percent": [10, 90]},
        {"payout_percent": [40, 20, 40]},
        {"payout_percent": [50, 30, 20], "max_players": 2},
        {"format": "sng", "start_at": None, "seats_per_table": 2, "payout_percent": [50, 30, 20]},
    ],
)
def test_rule_10_a_payout_table_the_rule_refuses_is_422_at_creation_and_nothing_is_stored(
    memory: Services, clock: FrozenClock, context: FakeContext, fields: dict[str, Any]
) -> None:
    # When an operator creates a tournament whose payout table breaks the payout rule
    status, body = create(context, clock, **fields)
    # Then it is refused with the contract's error body, and no tournament exists
    assert (status, body["error"]) == (422, "invalid_configuration"), body
    assert body["message"]
    page = api(http_event("GET", "/tournaments/t-odd"), context)
    assert page["statusCode"] == 404


def test_rule_10_a_payout_table_the_rule_accepts_is_created_and_shown(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # When an operator creates a tournament paying 60/25/15
    status, body = create(context, clock, payout_percent=[60, 25, 15])
    # Then it is created and its page answers
    assert (status, body["id"]) == (201, "t-odd")
    assert api(http_event("GET", "/tournaments/t-odd"), context)["statusCode"] == 200
