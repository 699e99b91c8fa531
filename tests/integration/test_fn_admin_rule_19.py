"""Rule 19 through the operators' HTTP function: every management act audited; bad input a 4xx that changes nothing."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.ledger import HOUSE_ADJUSTMENTS

from functions.admin.app import handler as admin
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import announce, clock, context, fund, memory, running  # noqa: F401


def call(context: FakeContext, method: str, path: str, **kw: Any) -> tuple[int, Any]:
    kw.setdefault("player", "olga")
    kw.setdefault("operator", True)
    response = admin(http_event(method, path, **kw), context)
    return response["statusCode"], answer_json(response)


def audit(context: FakeContext, query: str) -> list[dict[str, Any]]:
    status, body = call(context, "GET", "/admin/audit", query=query)
    assert status == 200, body
    records: list[dict[str, Any]] = body["records"]
    return records


def test_rule_19_stack_adjustment_route_is_applied_and_audited(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running tournament
    tid, _ = running(memory, clock)
    # When an operator adds 300 chips to p1 (the request sent twice with one key)
    path = f"/admin/tournaments/{tid}/players/p1/stack"
    body = {"delta": 300, "reason": "lost connection", "key": "s-1"}
    first = call(context, "POST", path, body=body)
    second = call(context, "POST", path, body=body)
    # Then it answers 200 once-applied, and the audit lists it once, for the tournament and the player
    assert first[0] == 200 and first == second and first[1]["delta"] == 300
    assert memory.adapters.store.entrants.get(tid, "p1").chips_adjusted == 300
    (record,) = audit(context, f"tournament={tid}")
    assert (record["act"], record["operator"], record["player"], record["reason"]) == (
        "stack_adjustment",
        "olga",
        "p1",
        "lost connection",
    )
    assert audit(context, "player=p1") == [record]


@pytest.mark.parametrize(
    "body",
    [
        {"delta": 0, "reason": "x"},
        {"delta": "10", "reason": "x"},
        {"delta": 1.5, "reason": "x"},
        {"delta": 10**10, "reason": "x"},
        {"delta": 10},
        {"delta": 10, "reason": ""},
        {"delta": 10, "reason": "x", "extra": 1},
    ],
)
def test_rule_19_bad_stack_adjustment_is_422_and_changes_nothing(
    memory: Services, clock: FrozenClock, context, body: dict[str, Any]
) -> None:
    tid, _ = running(memory, clock)
    status, answer = call(context, "POST", f"/admin/tournaments/{tid}/players/p1/stack", body=body)
    assert (status, answer["error"]) == (422, "invalid_request")
    assert memory.adapters.store.entrants.get(tid, "p1").chips_adjusted == 0
    assert audit(context, f"tournament={tid}") == []


def test_rule_19_stack_adjustment_of_an_unknown_player_or_tournament_is_404(
    memory: Services, clock: FrozenClock, context
) -> None:
    tid, _ = running(memory, clock)
    body = {"delta": 10, "reason": "x"}
    assert call(context, "POST", f"/admin/tournaments/{tid}/players/nobody/stack", body=body)[0] == 404
    assert call(context, "POST", "/admin/tournaments/none/players/p1/stack", body=body)[0] == 404


def test_rule_19_disqualify_route_folds_at_once_and_is_audited(memory: Services, clock: FrozenClock, context) -> None:
    # Given a running tournament
    tid, _ = running(memory, clock)
    # When an operator disqualifies p2 (twice)
    path = f"/admin/tournaments/{tid}/players/p2/disqualify"
    first = call(context, "POST", path, body={"reason": "collusion"})
    second = call(context, "POST", path, body={"reason": "collusion"})
    # Then the answer says the hand was folded, once, and the act is audited once
    assert first[0] == 200 and first == second and first[1]["folded"]
    assert [r["act"] for r in audit(context, "player=p2")] == ["disqualify"]
    # And a disqualification without a reason is bad input
    assert call(context, "POST", path, body={})[0] == 422


def test_rule_19_disqualify_before_the_start_is_409(memory: Services, clock: FrozenClock, context) -> None:
    tid = announce(memory, clock)
    fund(memory, "ann")
    memory.registration.register(tid, "ann")
    status, answer = call(context, "POST", f"/admin/tournaments/{tid}/players/ann/disqualify", body={"reason": "x"})
    assert status == 409 and answer["error"]
    assert audit(context, "player=ann") == []


def test_rule_19_mute_and_unmute_routes(memory: Services, context) -> None:
    # When an operator mutes ann for 15 minutes, then unmutes her
    status, muted = call(context, "POST", "/admin/players/ann/mute", body={"reason": "abuse", "minutes": 15})
    assert status == 200 and muted["muted"] and muted["until"]
    status, unmuted = call(context, "DELETE", "/admin/players/ann/mute", body={"reason": "sorry"})
    assert status == 200 and not unmuted["muted"]
    # Then unmuting again is 409, a bad mute 422, and the audit holds the two acts
    assert call(context, "DELETE", "/admin/players/ann/mute")[0] == 409
    for bad in ({"reason": "x", "minutes": 0}, {"reason": "x", "minutes": "5"}, {"minutes": 5}):
        assert call(context, "POST", "/admin/players/ann/mute", body=bad)[0] == 422
    assert [r["act"] for r in audit(context, "player=ann")] == ["mute", "unmute"]


def test_rule_19_balance_adjustment_route_is_double_entry_and_bounded(memory: Services, context) -> None:
    # Given ann with 10,000 cents
    fund(memory, "ann")
    # When an operator takes 2,000 (the request sent twice with one Idempotency-Key)
    headers = {"Idempotency-Key": "adj-1"}
    body = {"amount": -2_000, "reason": "chargeback"}
    first = call(context, "POST", "/admin/accounts/ann/adjustments", body=body, headers=headers)
    second = call(context, "POST", "/admin/accounts/ann/adjustments", body=body, headers=headers)
    # Then it is taken once, against the house's adjustments account, and audited once
    assert first[0] == 201 and first == second and first[1]["balance"] == 8_000
    assert memory.adapters.store.ledger.balance(HOUSE_ADJUSTMENTS) == 2_000
    # And more than she holds is 422 insufficient funds; zero, floats, text and huge amounts are 422 too
    status, answer = call(context, "POST", "/admin/accounts/ann/adjustments", body={"amount": -9_000, "reason": "x"})
    assert (status, answer["error"]) == (422, "insufficient_funds")
    for amount in (0, 1.5, "5", 10**130, -(10**10)):
        status, answer = call(
            context, "POST", "/admin/accounts/ann/adjustments", body={"amount": amount, "reason": "x"}
        )
        assert (status, answer["error"]) == (422, "invalid_request"), amount
    assert memory.accounts.account("ann").balance == 8_000
    assert [r["act"] for r in audit(context, "player=ann")] == ["balance_adjustment"]


def test_rule_19_deposits_through_the_route_are_audited(memory: Services, context) -> None:
    memory.accounts.open("bob")  # bob signed in once
    status, _ = call(context, "POST", "/admin/accounts/bob/deposits", body={"amount": 700, "key": "d-1"})
    assert status == 201
    (record,) = audit(context, "player=bob")
    assert (record["act"], record["before"], record["after"]["balance"]) == ("deposit", {"balance": 0}, 700)


def test_rule_19_audit_route_needs_one_tournament_or_one_player(memory: Services, context) -> None:
    assert call(context, "GET", "/admin/audit") == (200, {"records": []})  # no filter: the latest acts
    assert call(context, "GET", "/admin/audit", query="tournament=t1&player=ann")[0] == 409
    assert call(context, "GET", "/admin/audit", query="tournament=t1") == (200, {"records": []})


def test_rule_19_players_are_refused_every_management_route(memory: Services, clock: FrozenClock, context) -> None:
    tid, _ = running(memory, clock)
    answers = [
        call(context, "POST", f"/admin/tournaments/{tid}/players/p1/stack", body={"delta": 5, "reason": "x"},
             player="p1", operator=False),
        call(context, "POST", f"/admin/tournaments/{tid}/players/p2/disqualify", body={"reason": "x"},
             player="p1", operator=False),
        call(context, "POST", "/admin/players/p2/mute", body={"reason": "x"}, player="p1", operator=False),
        call(context, "DELETE", "/admin/players/p2/mute", player="p1", operator=False),
        call(context, "POST", "/admin/accounts/p1/adjustments", body={"amount": 5, "reason": "x"},
             player="p1", operator=False),
        call(context, "GET", "/admin/audit", query="player=p1", player="p1", operator=False),
    ]  # fmt: skip
    assert [status for status, _ in answers] == [403] * 6
    assert memory.audit.listing(tournament=tid).records == ()
