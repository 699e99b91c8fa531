# ruff: noqa: F811  (pytest fixtures imported from tests.support)
"""Whole tournaments through the handlers, over the DynamoDB store on moto (issue 4, 'Must show').

Operators and players speak to ``admin`` and ``api`` with API Gateway HTTP
events; the start schedule, the start workflow's steps, the time-outs and the
hand ends are delivered to ``start``, ``start_tasks``, ``timeouts`` and
``coordinator`` as EventBridge, Step Functions and SQS would deliver them
(``tests/support/handler_room.py``). Then the domain simulator's invariants:
money to the cent, chips, places, and no other player's hole cards in a view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.domain.ledger import EXTERNAL, house_account, pool_account

from tests.support.aws import aws, dynamodb, serial_aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.handler_room import Room, api_instance, at_once, handlers_over, services_on_dynamo

pytestmark = pytest.mark.usefixtures("dynamodb")

BUY_IN, ENTRY_FEE, DEPOSIT = 1_000, 100, 5_000


@pytest.fixture
def room(dynamodb: dict[str, str]) -> Iterator[Room]:
    clock = FrozenClock()
    services = services_on_dynamo(clock)
    with handlers_over(services):
        yield Room(services, clock)


# -- steps, through the handlers only --------------------------------------------------------------------------------


def announce(room: Room, tid: str, **options: Any) -> None:
    body = {
        "name": "Whole", "format": "freezeout", "buy_in": BUY_IN, "entry_fee": ENTRY_FEE, "seats_per_table": 6,
        "start_at": (room.clock.now() + timedelta(hours=1)).isoformat(), "level_minutes": 1, "tournament_id": tid,
        **options,
    }  # fmt: skip
    status, answer = room.admin("POST", "/admin/tournaments", body, headers={"Idempotency-Key": f"create-{tid}"})
    assert status == 201, answer


def deposit(room: Room, player: str, amount: int = DEPOSIT) -> None:
    status, answer = room.admin(
        "POST", f"/admin/accounts/{player}/deposits", {"amount": amount}, headers={"Idempotency-Key": f"d-{player}"}
    )
    assert status == 201, answer


def register(room: Room, tid: str, player: str) -> dict[str, Any]:
    status, answer = room.api("POST", f"/tournaments/{tid}/registrations", player, headers={"Idempotency-Key": "r1"})
    assert status == 201, answer
    return answer  # type: ignore[no-any-return]


def start(room: Room, tid: str) -> list[str]:
    """The start time comes: the schedule fires ``start``, whose workflow runs through ``start_tasks``."""
    status, details = room.api("GET", f"/tournaments/{tid}", "anyone")
    assert status == 200, details
    room.clock.set(_at(details["start_at"]))
    room.fire_start_schedule(tid)
    return room.run_start_workflows()


def _at(text: str) -> Any:
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def wallet(room: Room, player: str) -> int:
    status, account = room.api("GET", "/me/account", player)
    assert status == 200, account
    return int(account["balance"])


def hides_other_hole_cards(view: dict[str, Any], viewer: str) -> bool:
    """While a hand is in play, a player's view shows no hole card but the viewer's own."""
    if not view["hand_in_progress"]:
        return True
    return all(not seat["cards"] for seat in view["seats"] if seat["player"] != viewer)


class Bots:
    """Players deciding from the table view they get from ``GET .../tables/{table}``; now and then one sleeps."""

    def __init__(self, seed: int, sleep_chance: float = 0.03) -> None:
        self.rng = random.Random(seed)
        self.sleep_chance = sleep_chance
        self.asleep: set[tuple[str, int, int]] = set()

    def decide(self, view: dict[str, Any]) -> dict[str, Any] | None:
        to_act = view["to_act"]
        decision = (view["table"], view["hand"], to_act["seq"])
        if decision in self.asleep:
            return None
        roll = self.rng.random()
        if roll < self.sleep_chance:
            self.asleep.add(decision)
            return None
        body: dict[str, Any] = {"hand": view["hand"], "seq": to_act["seq"]}
        wager = "bet" if max(seat["bet"] for seat in view["seats"]) == 0 else "raise"
        if to_act["max_raise_to"] is not None and roll < 0.12:
            return {**body, "action": wager, "amount": to_act["max_raise_to"]}
        if to_act["min_raise_to"] is not None and roll < 0.25:
            return {**body, "action": wager, "amount": to_act["min_raise_to"]}
        if roll < 0.8:
            return {**body, "action": "check" if to_act["can_check"] else "call"}
        return {**body, "action": "check" if to_act["can_check"] else "fold"}


def play_to_the_end(room: Room, tid: str, players: list[str], bots: Bots, max_rounds: int = 5_000) -> Counter[str]:
    """Each round every table's awaited decision is taken through ``api`` (or left to time out); hand ends go to
    the coordinator and due time-outs to ``timeouts``. Checks the invariants of play on the way."""
    seen: Counter[str] = Counter()
    total_chips: int | None = None
    for _ in range(max_rounds):
        room.drain_coordinator()
        status, standings = room.api("GET", f"/tournaments/{tid}/standings", players[0])
        assert status == 200, standings
        if standings["status"] != "running":
            return seen
        # Chips are conserved: the standings add up to every chip dealt out, whatever the hands in play.
        chips = sum(row["chips"] for row in standings["players"])
        total_chips = chips if total_chips is None else total_chips
        assert chips == total_chips
        moved = False
        seated: dict[str, str] = {}
        for row in standings["players"]:
            seated.setdefault(row["table"], row["player"])
        for table, someone in sorted(seated.items()):
            status, view = room.api("GET", f"/tournaments/{tid}/tables/{table}", someone)
            assert status == 200, view
            assert hides_other_hole_cards(view, someone)
            if view["to_act"] is None:
                continue
            actor = view["to_act"]["player"]
            status, view = room.api("GET", f"/tournaments/{tid}/tables/{table}", actor)
            assert status == 200, view
            assert hides_other_hole_cards(view, actor)
            seen["views"] += 2
            if view["to_act"] is None or view["to_act"]["player"] != actor:
                continue
            body = bots.decide(view)
            if body is None:
                seen["slept"] += 1
                continue
            status, outcome = room.api("POST", f"/tournaments/{tid}/tables/{table}/actions", actor, body)
            assert status == 200, (body, outcome)
            seen["actions"] += 1
            moved = True
            room.drain_coordinator()
        if moved:
            room.clock.advance(3)
        else:
            # Nobody acted: time passes until the next time-out is due (a sleeper's, or a rebuy window).
            due = room.adapters.timers.next_due()
            assert due is not None, "stuck: no decision taken and no time-out armed"
            room.clock.set(max(due, room.clock.now()))
        seen["timeouts"] += deliver_due_timeouts(room)
    raise AssertionError("the tournament did not end")


def deliver_due_timeouts(room: Room) -> int:
    due = room.adapters.timers.due(room.clock.now())
    for i in range(0, len(due), 10):
        assert room.deliver_timeouts(*due[i : i + 10]) == []
    return len(due)


def is_a_ranking(places: list[int]) -> bool:
    """Places 1..N, each once, but for players who share a place (rule 51: eliminated in one hand with equal
    stacks), who all get the best of the places they share: [1, 2, 3, 3, 5]."""
    return all(place == places.index(place) + 1 for place in places)


def house_revenue(room: Room, tid: str) -> int:
    ledger = room.adapters.store.ledger
    shards = room.adapters.store.tournaments.get(tid).house_shards
    accounts = [house_account(tid)] if shards == 1 else [house_account(tid, s) for s in range(shards)]
    return sum(ledger.balance(account) for account in accounts)


# -- 1. a whole freezeout ------------------------------------------------------------------------------------------


def test_a_freezeout_runs_through_the_handlers_to_its_winner_with_money_chips_and_places_exact(room: Room) -> None:
    # Given a freezeout of 9 players on two 6-seat tables, announced, funded and registered through the handlers
    tid = "whole"
    players = [f"p{i}" for i in range(9)]
    announce(room, tid)
    for player in players:
        deposit(room, player)
        assert register(room, tid, player)["status"] == "registered"
    # When the start fires and the bots play it out through the api, the time-outs and the coordinator
    tables = start(room, tid)
    assert len(tables) == 2
    seen = play_to_the_end(room, tid, players, Bots(seed=11))
    # Then it finished, with places 1..9 each given once
    status, standings = room.api("GET", f"/tournaments/{tid}/standings", players[0])
    assert status == 200 and standings["status"] == "finished"
    places = standings["places"]
    assert is_a_ranking(sorted(p["place"] for p in places)) and len(places) == 9
    assert sorted(p["player"] for p in places) == players
    # And the money is exact to the cent: wallets + pool + house == deposits; the prizes are the pool
    wallets = {player: wallet(room, player) for player in players}
    ledger = room.adapters.store.ledger
    pool, revenue = ledger.balance(pool_account(tid)), house_revenue(room, tid)
    assert revenue == 9 * ENTRY_FEE
    assert sum(wallets.values()) + pool + revenue == 9 * DEPOSIT == -ledger.balance(EXTERNAL)
    prizes = {p["player"]: p["prize"] for p in places}
    assert sum(prizes.values()) == 9 * BUY_IN and pool == 0
    assert all(wallets[p] == DEPOSIT - BUY_IN - ENTRY_FEE + prizes[p] for p in players)
    # And it was played through the handlers: actions, views, and at least one time-out delivered
    assert seen["actions"] > 0 and seen["slept"] > 0
    assert room.delivered_hand_ends and room.delivered_timeouts


# -- 2. registration races at the cap ----------------------------------------------------------------------------------


def test_registrations_racing_at_the_cap_through_the_api_fill_6_seats_10_waiting_and_charge_nobody_twice(
    room: Room, serial_aws: None
) -> None:
    # Given 6 seats, 20 funded players, each request in its own Lambda environment; p00..p02 send their request
    # twice at once with one Idempotency-Key, p03..p05 twice at once without a key
    tid = "race"
    announce(room, tid, max_players=6, min_players=2)
    players = [f"p{i:02d}" for i in range(20)]
    for player in players:
        deposit(room, player)
    senders = players + players[:6]

    def request(player: str, index: int) -> Callable[[], tuple[str, int, Any]]:
        handler = api_instance(room.services)
        key = {"Idempotency-Key": f"reg-{player}"} if player not in players[3:6] else None

        def send() -> tuple[str, int, Any]:
            event = http_event("POST", f"/tournaments/{tid}/registrations", player=player, headers=key)
            response = handler(event, FakeContext(aws_request_id=f"req-{index}"))
            return player, response["statusCode"], answer_json(response)

        return send

    # When all 26 requests arrive at once
    answers = at_once([request(player, i) for i, player in enumerate(senders)])
    # Then every answer is a 201 or a 4xx JSON error (never a 5xx)
    for player, status, body in answers:
        assert status == 201 or (400 <= status < 500 and {"error", "message"} <= set(body)), (player, status, body)
    # And exactly 6 are registered, 10 wait at positions 1..10, 4 are refused with waiting_list_full
    final = {player: room.api("GET", f"/tournaments/{tid}/registrations/me", player)[1] for player in players}
    states = Counter(body["status"] for body in final.values())
    assert states == Counter(registered=6, waitlisted=10, not_registered=4)
    positions = sorted(body["position"] for body in final.values() if body["status"] == "waitlisted")
    assert positions == list(range(1, 11))
    refused = {player for player, body in final.items() if body["status"] == "not_registered"}
    for player in refused:
        assert {(s, b["error"]) for p, s, b in answers if p == player} <= {
            (409, "waiting_list_full"),
            (409, "idempotency_conflict"),
        }
    # And a request sent twice with one key reached the registration once: the one answer, or it twice
    for player in players[:3]:
        doubled = [(s, b) for p, s, b in answers if p == player]
        reached = [(s, b) for s, b in doubled if b.get("error") != "idempotency_conflict"]
        assert len(reached) == 1 or reached[0] == reached[1], doubled
    # And a request sent twice without a key registered once: the other is refused as already registered
    for player in players[3:6]:
        doubled = Counter(b.get("error") or "created" for p, s, b in answers if p == player)
        assert doubled == Counter(created=1, already_registered=1) or player in refused, doubled
    # And nobody was charged twice: a wallet lost the buy-in and fee once, or nothing when refused
    for player in players:
        expected = DEPOSIT if player in refused else DEPOSIT - BUY_IN - ENTRY_FEE
        assert wallet(room, player) == expected, player
    ledger = room.adapters.store.ledger
    assert ledger.balance(pool_account(tid)) == 16 * BUY_IN
    assert house_revenue(room, tid) == 16 * ENTRY_FEE
    assert -ledger.balance(EXTERNAL) == 20 * DEPOSIT
