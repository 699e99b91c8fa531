"""Rule 17 through the operators' HTTP function: ``GET /admin/tournaments/{id}/recovery`` tells a terminated
tournament's restart window left and its outcome (pending, restarted, compensated), rule 17.3's outcome and the
amounts paid, so that the console reads them instead of working them out (docs/interfaces.md)."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.admin.app import handler as admin
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory, running  # noqa: F401


def call(context: FakeContext, method: str, path: str, player: str = "op", **kw: Any) -> tuple[int, Any]:
    response = admin(http_event(method, path, player=player, operator=player == "op", **kw), context)
    return response["statusCode"], answer_json(response)


def terminate(context: FakeContext, tid: str, reason: str = "a power cut") -> None:
    status, body = call(context, "POST", f"/admin/tournaments/{tid}/terminate", body={"reason": reason})
    assert status == 200, body


def compensate(memory: Services, clock: FrozenClock, tid: str) -> None:
    """The recovery workflow's steps: the hands cancelled, the 20 minutes waited, the compensation paid."""
    memory.recovery.cancel_hands(tid)
    clock.advance(20 * 60)
    for _ in range(1_000):
        if not getattr(memory.recovery.compensate(tid), "more", False):
            return
    raise AssertionError("compensation did not finish")


def test_rule_17_a_terminated_tournament_shows_its_window_left_then_what_its_players_were_paid(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    # Given a freezeout of four terminated in its first minutes
    tid, _ = running(memory, clock)
    terminate(context, tid)
    # Then its recovery is pending, with the whole 20 minutes left and a rollback ahead (rule 17.3b)
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery")
    assert status == 200, body
    assert (body["outcome"], body["window_seconds_left"], body["rule"], body["plan_fixed"]) == (
        "pending",
        1200,
        "rollback",
        False,
    )
    assert (body["terminated_by"], body["reason"], body["status"]) == ("op", "a power cut", "terminated")
    assert body["restart_deadline"] > body["terminated_at"] and body["paid_total"] is None
    # When five minutes pass, 15 are left
    clock.advance(5 * 60)
    assert call(context, "GET", f"/admin/tournaments/{tid}/recovery")[1]["window_seconds_left"] == 900
    # When the players have been compensated
    compensate(memory, clock, tid)
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery")
    # Then it says compensated, by a rollback: each entrant's buy-in and fee back, 11.00 each, 44.00 in all
    assert (body["outcome"], body["rule"], body["plan_fixed"], body["window_seconds_left"]) == (
        "compensated",
        "rollback",
        True,
        0,
    )
    assert (body["paid_total"], body["players_paid"], body["overlay"]) == (4 * 1_100, 4, 0)
    assert sorted((p["player"], p["name"], p["amount"]) for p in body["payments"]) == [
        (f"p{i}", f"p{i}", 1_100) for i in range(4)
    ]
    assert body["compensated_at"]


def test_rule_17_a_tournament_restarted_in_its_window_says_restarted(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    tid, _ = running(memory, clock)
    terminate(context, tid)
    clock.advance(3 * 60)
    status, body = call(context, "POST", f"/admin/tournaments/{tid}/restart", body={"reason": "fixed"})
    assert status == 200, body
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery")
    assert (body["outcome"], body["status"], body["rule"], body["window_seconds_left"]) == (
        "restarted",
        "running",
        None,
        0,
    )
    assert body["restarted_at"] > body["terminated_at"]


def test_rule_17_3c_a_freezeout_terminated_after_30_minutes_has_a_payout_ahead(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    tid, _ = running(memory, clock)
    clock.advance(31 * 60)
    terminate(context, tid)
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery")
    assert (status, body["outcome"], body["rule"]) == (200, "pending", "payout")


def test_a_tournament_never_terminated_has_no_recovery_and_players_may_not_ask(
    memory: Services, clock: FrozenClock, context: FakeContext
) -> None:
    tid, _ = running(memory, clock)
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery")
    assert (status, body["error"]) == (409, "conflict") and "never terminated" in body["message"]
    assert call(context, "GET", "/admin/tournaments/nope/recovery")[0] == 404
    terminate(context, tid)
    status, body = call(context, "GET", f"/admin/tournaments/{tid}/recovery", player="p1")
    assert (status, body["error"]) == (403, "forbidden")
