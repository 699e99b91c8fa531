"""The table view over HTTP and the WebSocket pushes (docs/openapi.json; docs/rules.md, rule 16):
``to_act.deadline`` is when the decision's own time runs out, the same after a reload and unmoved by writes that do
not start a decision; ``to_act.bank_deadline`` once the time bank runs; ``seats[].last_action`` the seat's last action
of the street. A player still sees no other player's hole cards."""

# ruff: noqa: F811  (pytest fixtures imported from tests.support)
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services

from functions.api.app import handler as api
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.functions import clock, context, memory, running  # noqa: F401


def call(context: FakeContext, method: str, path: str, player: str, body: Any = None) -> tuple[int, Any]:
    response = api(http_event(method, path, body=body, player=player), context)
    return response["statusCode"], answer_json(response)


def at(text: str | None) -> datetime | None:
    """An ISO-8601 UTC time of a view (``Z``, with or without milliseconds), or None."""
    if text is None:
        return None
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text)


def view_of(context: FakeContext, tid: str, table: str, player: str) -> dict[str, Any]:
    status, view = call(context, "GET", f"/tournaments/{tid}/tables/{table}", player)
    assert status == 200, view
    return dict(view)


def test_rule_16_the_table_view_gives_the_decision_deadline(memory: Services, clock: FrozenClock, context) -> None:
    # Given a hand dealt now, its first player to act reading the table 6 seconds in
    tid, table = running(memory, clock)
    dealt = clock.now()
    clock.advance(6)
    first = view_of(context, tid, table, "p0")["to_act"]
    # Then the decision's own 15 seconds run from the deal, and no time bank runs
    assert (at(first["deadline"]), first["bank_deadline"]) == (dealt + timedelta(seconds=15), None)
    # When another player goes away (a write of the table that starts no decision) and the table is read again
    other = next(s["player"] for s in view_of(context, tid, table, "p0")["seats"] if s["player"] != first["player"])
    assert call(context, "POST", f"/tournaments/{tid}/away", other)[0] == 200
    clock.advance(2)
    # Then the deadline has not moved: a reload shows the same clock
    assert view_of(context, tid, table, first["player"])["to_act"]["deadline"] == first["deadline"]


def test_rule_16_the_next_decisions_deadline_runs_from_the_action(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given a hand dealt, whose first player calls 4 seconds in
    tid, table = running(memory, clock)
    first = view_of(context, tid, table, "p0")
    clock.advance(4)
    acted = clock.now()
    decision = {"hand": first["hand"], "seq": first["to_act"]["seq"], "action": "call"}
    assert (
        call(context, "POST", f"/tournaments/{tid}/tables/{table}/actions", first["to_act"]["player"], decision)[0]
        == 200
    )
    # Then the next decision's 15 seconds run from that call
    assert at(view_of(context, tid, table, "p0")["to_act"]["deadline"]) == acted + timedelta(seconds=15)


def test_rule_16_the_table_view_gives_the_bank_deadline_once_the_time_bank_runs(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given a decision whose own time runs out: its time-out starts the player's 30-second bank
    tid, table = running(memory, clock)
    own = view_of(context, tid, table, "p0")["to_act"]["deadline"]
    clock.advance(15)
    for message in memory.adapters.timers.due(clock.now()):
        memory.timeouts.on_timeout(message)
    # Then the view says the bank runs, until 30 seconds after its own time ran out
    to_act = view_of(context, tid, table, "p0")["to_act"]
    assert to_act["on_time_bank"]
    assert (to_act["deadline"], at(to_act["bank_deadline"])) == (own, clock.now() + timedelta(seconds=30))


def test_rule_16_each_seat_shows_its_last_action_of_the_street(memory: Services, clock: FrozenClock, context) -> None:
    # Given a hand dealt: nobody has acted yet (the blinds are forced bets, not actions)
    tid, table = running(memory, clock)
    view = view_of(context, tid, table, "p0")
    assert [s["last_action"] for s in view["seats"]] == [None] * len(view["seats"])
    # When the first player calls the big blind and the next folds
    caller = view["to_act"]
    decision = {"hand": view["hand"], "seq": caller["seq"], "action": "call"}
    assert call(context, "POST", f"/tournaments/{tid}/tables/{table}/actions", caller["player"], decision)[0] == 200
    folder = view_of(context, tid, table, "p0")["to_act"]
    decision = {"hand": view["hand"], "seq": folder["seq"], "action": "fold"}
    assert call(context, "POST", f"/tournaments/{tid}/tables/{table}/actions", folder["player"], decision)[0] == 200
    # Then each seat shows its action, the call with the bet it made, and the others none yet
    seats = {s["seat"]: s for s in view_of(context, tid, table, "p0")["seats"]}
    big_blind = seats[view["big_blind_seat"]]["bet"]
    assert seats[caller["seat"]]["last_action"] == {"kind": "call", "amount": big_blind, "all_in": False}
    assert seats[folder["seat"]]["last_action"] == {"kind": "fold", "amount": None, "all_in": False}
    assert [s["last_action"] for n, s in seats.items() if n not in (caller["seat"], folder["seat"])] == [None] * (
        len(seats) - 2
    )


def test_rule_16_the_table_pushes_carry_the_clock_and_last_actions_and_no_other_hole_cards(
    memory: Services, clock: FrozenClock, context
) -> None:
    # Given two seated players watching their table over the WebSocket
    tid, table = running(memory, clock)
    view = view_of(context, tid, table, "p0")
    players = [s["player"] for s in view["seats"]]
    pushes = memory.adapters.pushes
    for player in players[:2]:
        pushes.connect(f"c-{player}", player)
        pushes.subscribe(f"c-{player}", tid, table)
    # When the player to act calls
    caller = view["to_act"]
    decision = {"hand": view["hand"], "seq": caller["seq"], "action": "call"}
    assert call(context, "POST", f"/tournaments/{tid}/tables/{table}/actions", caller["player"], decision)[0] == 200
    # Then each push names the next decision's deadline and the caller's action, and only the viewer's own cards
    for player in players[:2]:
        pushed = pushes.received(f"c-{player}")[-1]["table"]
        assert at(pushed["to_act"]["deadline"]) == clock.now() + timedelta(seconds=15)
        assert {s["seat"]: s["last_action"] for s in pushed["seats"]}[caller["seat"]]["kind"] == "call"
        assert [s["player"] for s in pushed["seats"] if s["cards"]] == [player]
