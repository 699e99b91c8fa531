"""Rule 17.6 through the operators' HTTP function: a terminate or a cancel of a tournament that dealt no hand.

Its start closed registration and dealt no hand (its seating step keeps
failing): the answer is 200 with the status ``cancelled``, and every player
is refunded in full at once.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory  # noqa: F401

PLAYERS = ("ann", "bob", "cy")


def call(context: FakeContext, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    response = admin(http_event("POST", path, body=body, player="op", operator=True), context)
    return response["statusCode"], answer_json(response)


def closed_and_never_dealt(memory: Services, clock: FrozenClock) -> str:
    tid = announce(memory, clock)
    fund(memory, *PLAYERS)
    for player in PLAYERS:
        memory.registration.register(tid, player)
    clock.set(memory.adapters.store.tournaments.get(tid).start_at)
    assert memory.start.close_registration(tid).status == "running"
    return tid


@pytest.mark.parametrize("act", ["terminate", "cancel"])
def test_rule_17_6_an_operators_terminate_or_cancel_of_a_tournament_that_never_dealt_refunds_at_once(
    memory: Services, clock: FrozenClock, context: FakeContext, act: str
) -> None:
    # Given a tournament whose start closed registration and dealt no hand
    tid = closed_and_never_dealt(memory, clock)
    assert [memory.accounts.account(p).balance for p in PLAYERS] == [8_900] * 3
    # When an operator terminates or cancels it over HTTP
    status, body = call(context, f"/admin/tournaments/{tid}/{act}", {"reason": "the start keeps failing"})
    # Then the answer says it is cancelled, and everyone is refunded in full at once
    assert (status, body["tournament_id"], body["status"]) == (200, tid, "cancelled")
    assert [memory.accounts.account(p).balance for p in PLAYERS] == [10_000] * 3
    assert memory.adapters.store.tournaments.get(tid).status == "cancelled"
    assert list(memory.adapters.workflows.pending_recoveries) == []
    memory.adapters.store.money.verify_invariants()
