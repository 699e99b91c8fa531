"""Rule 19: ``GET /admin/audit`` with no filter lists the latest acts, newest first and bounded.

With ``?tournament=`` or ``?player=`` it lists that tournament's or player's
acts, oldest first; with neither, the operators' console shows what was done
last, anywhere: the ``LATEST_ACTS`` newest records. Both filters at once stay
a 409 with the contract's error body. The same listing on DynamoDB (moto)
reads one index, newest first, never the whole table.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tourney.adapters.dynamo.store import DynamoStore
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.audit import LATEST_ACTS

from functions.admin.app import handler as admin
from tests.support.aws import aws, dynamodb  # noqa: F401
from tests.support.contracts import operator_act
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory  # noqa: F401


def call(context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    response = admin(http_event(method, path, player="olga", operator=True, **kw), context)
    return response["statusCode"], answer_json(response)


def test_rule_19_the_audit_without_a_filter_lists_the_latest_acts_newest_first(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # Given more deposits than the listing holds, one a second, to several players who signed in
    for n in range(7):
        memory.accounts.open(f"p{n}")
    for n in range(LATEST_ACTS + 5):
        clock.advance(1)
        status, _ = call(context, "POST", f"/admin/accounts/p{n % 7}/deposits", body={"amount": 100, "key": f"d{n}"})
        assert status == 201
    # When an operator asks for the audit with no filter
    status, body = call(context, "GET", "/admin/audit")
    # Then it answers the latest LATEST_ACTS acts, newest first
    assert status == 200, body
    keys = [r["after"]["entry"] for r in body["records"]]
    newest = [f"deposit:p{n % 7}:d{n}" for n in reversed(range(5, LATEST_ACTS + 5))]
    assert keys == newest
    # And both filters at once are still refused with the contract's error body
    status, body = call(context, "GET", "/admin/audit", query="tournament=t1&player=p1")
    assert (status, body["error"]) == (409, "illegal_action") and body["message"]


@pytest.mark.usefixtures("dynamodb")
def test_rule_19_the_latest_acts_on_dynamodb_newest_first_across_tournaments_and_players() -> None:
    # Given acts about two tournaments and two players, a second apart
    clock = FrozenClock()
    store = DynamoStore()
    written = []
    for n, (tournament, player) in enumerate([("t1", "ann"), (None, "bob"), ("t2", None), ("t1", None), (None, "ann")]):
        clock.advance(1)
        written.append(operator_act(f"a{n}", clock.now(), tournament_id=tournament, player_id=player))
        uow = store.unit_of_work()
        uow.save(written[-1])
        uow.commit()
    # Then the latest three are listed newest first, wherever they were written
    stored = [replace(r, version=1) for r in written]
    assert list(store.audit.latest(3)) == stored[:1:-1]
    assert list(store.audit.latest(10)) == stored[::-1]
