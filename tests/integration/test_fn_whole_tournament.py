# ruff: noqa: F811  (pytest fixtures imported from tests.support)
"""Whole tournaments through the handlers, over the DynamoDB store on moto.

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
from tourney.domain.ledger import EXTERNAL, house_account, player_account, pool_account
from tourney.services.messages import HandEnded, TimeoutDue

from tests.support.aws import aws, dynamodb, serial_aws  # noqa: F401
from tests.support.events import FakeContext, answer_json, http_event
from tests.support.hand_ends import hold_for_the_coordination
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
    assert room.api("GET", "/me/account", player)[0] == 200  # the player signs in: their account opens
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
    seated: dict[str, str] = {}
    for _ in range(max_rounds):
        if room.drain_coordinator() or not seated:
            # A hand ended (players may have busted or moved): read the standings again.
            status, standings = room.api("GET", f"/tournaments/{tid}/standings", players[0])
            assert status == 200, standings
            if standings["status"] != "running":
                return seen
            # Chips are conserved: the standings add up to every chip dealt out, whatever the hands in play.
            chips = sum(row["chips"] for row in standings["players"])
            total_chips = chips if total_chips is None else total_chips
            assert chips == total_chips
            seated = {}
            for row in standings["players"]:
                seated.setdefault(row["table"], row["player"])
        moved = False
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


@pytest.mark.parametrize(
    ("field", "seats", "starting_stack", "sleep_chance", "seed"),
    [
        pytest.param(4, 3, 200, 0.05, 11, id="4-players-short-stacks"),
        pytest.param(20, 6, None, 0.03, 5, id="20-players", marks=pytest.mark.slow),
    ],
)
def test_a_freezeout_runs_through_the_handlers_to_its_winner_with_money_chips_and_places_exact(
    room: Room, field: int, seats: int, starting_stack: int | None, sleep_chance: float, seed: int
) -> None:
    # Given a freezeout, announced, funded and registered through the handlers (make test: 4 players with
    # 4 big blinds each at two 3-seat tables, a few seconds; -m slow: 20 players with full stacks at four)
    tid = "whole"
    players = [f"p{i:02d}" for i in range(field)]
    stack = {"starting_stack": starting_stack} if starting_stack else {}
    announce(room, tid, seats_per_table=seats, **stack)
    for player in players:
        deposit(room, player)
        assert register(room, tid, player)["status"] == "registered"
    # When the start fires and the bots play it out through the api, the time-outs and the coordinator
    tables = start(room, tid)
    assert len(tables) == -(-field // seats)
    seen = play_to_the_end(room, tid, players, Bots(seed=seed, sleep_chance=sleep_chance))
    # Then it finished, with places 1..N each given once (or shared, rule 51)
    status, standings = room.api("GET", f"/tournaments/{tid}/standings", players[0])
    assert status == 200 and standings["status"] == "finished"
    places = standings["places"]
    assert is_a_ranking(sorted(p["place"] for p in places)) and len(places) == field
    assert sorted(p["player"] for p in places) == players
    # And the money is exact to the cent: wallets + pool + house == deposits; the prizes are the pool
    wallets = {player: wallet(room, player) for player in players}
    ledger = room.adapters.store.ledger
    pool, revenue = ledger.balance(pool_account(tid)), house_revenue(room, tid)
    assert revenue == field * ENTRY_FEE
    assert sum(wallets.values()) + pool + revenue == field * DEPOSIT == -ledger.balance(EXTERNAL)
    prizes = {p["player"]: p["prize"] for p in places}
    assert sum(prizes.values()) == field * BUY_IN and pool == 0
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
        # (a request that lost its race at every retry answers 409 stale_version: try again, nothing charged)
        assert {(s, b["error"]) for p, s, b in answers if p == player} <= {
            (409, "waiting_list_full"),
            (409, "idempotency_conflict"),
            (409, "stale_version"),
        }
    # And a request sent twice with one key reached the registration once: the one answer, or it twice
    for player in players[:3]:
        doubled = [(s, b) for p, s, b in answers if p == player]
        reached = [(s, b) for s, b in doubled if b.get("error") not in ("idempotency_conflict", "stale_version")]
        assert len(reached) == 1 or reached[0] == reached[1], doubled
    # And a request sent twice without a key registered once: the other is a 409, already registered (or, when the
    # list filled while both were in flight, waiting_list_full: the loser read no registration, then a full list)
    for player in players[3:6]:
        doubled = [(s, b.get("error") or "created") for p, s, b in answers if p == player]
        created = [d for d in doubled if d[1] == "created"]
        assert len(created) == (0 if player in refused else 1), doubled
        refusals = {(409, "already_registered"), (409, "waiting_list_full"), (409, "stale_version")}
        assert all(d in refusals for d in doubled if d[1] != "created")
    # And nobody was charged twice: a wallet lost the buy-in and fee once, or nothing when refused
    for player in players:
        expected = DEPOSIT if player in refused else DEPOSIT - BUY_IN - ENTRY_FEE
        assert wallet(room, player) == expected, player
    ledger = room.adapters.store.ledger
    assert ledger.balance(pool_account(tid)) == 16 * BUY_IN
    assert house_revenue(room, tid) == 16 * ENTRY_FEE
    assert -ledger.balance(EXTERNAL) == 20 * DEPOSIT


# -- 3. duplicate deliveries of every event type ----------------------------------------------------------------------


def funded_field(room: Room, tid: str, count: int, **options: Any) -> list[str]:
    """A freezeout announced, ``count`` players funded and registered, all through the handlers."""
    announce(room, tid, **options)
    players = [f"{tid}{i}" for i in range(count)]
    for player in players:
        deposit(room, player)
        register(room, tid, player)
    return players


def snapshot(room: Room, tid: str, players: list[str]) -> dict[str, Any]:
    """What must not move twice: every table (version, hand, decision), every balance, every place."""
    store = room.adapters.store
    tables = {
        r.table_id: (r.version, r.table.hand_number, r.table.awaiting().seq if r.table.awaiting() else None, r.closed)
        for r in store.tables.list(tid)
    }
    balances = {p: store.ledger.balance(player_account(p)) for p in players}
    places = {e.player_id: e.placing for e in store.entrants.list(tid)}
    return {
        "status": store.tournaments.get(tid).status,
        "tables": tables,
        "balances": balances,
        "pool": store.ledger.balance(pool_account(tid)),
        "house": house_revenue(room, tid),
        "places": places,
    }


def table_view(room: Room, tid: str, table: str, player: str) -> dict[str, Any]:
    status, view = room.api("GET", f"/tournaments/{tid}/tables/{table}", player)
    assert status == 200, view
    return view  # type: ignore[no-any-return]


def test_the_start_schedule_and_each_start_workflow_step_delivered_twice_start_the_tournament_once(room: Room) -> None:
    # Given a field of 8 registered through the handlers, at its start time
    tid = "dups"
    players = funded_field(room, tid, 8)
    _, details = room.api("GET", f"/tournaments/{tid}", players[0])
    room.clock.set(_at(details["start_at"]))
    # When the schedule fires twice
    room.fire_start_schedule(tid)
    room.fire_start_schedule(tid)
    # Then one workflow execution is started
    assert list(room.adapters.workflows.started) == [tid] and len(room.adapters.workflows.pending_starts) == 1
    room.adapters.workflows.pending_starts.clear()
    # When each step of the workflow runs twice (a retried task, a redelivered Map item)
    plans = [room.step({"step": "close_registration", "tournament_id": tid}) for _ in range(2)]
    assert plans[0] == plans[1] and plans[0]["status"] == "running"
    after_close = snapshot(room, tid, players)
    tables: list[str] = []
    for batch in plans[0]["batches"]:
        seated = [room.step({"step": "seat_batch", "tournament_id": tid, "batch": batch}) for _ in range(2)]
        assert seated[0]["tables"] == seated[1]["tables"]
        tables += seated[0]["tables"]
    for batch in plans[0]["batches"]:
        room.step({"step": "deal_first_hands", "tournament_id": tid, "batch": batch})
    dealt = snapshot(room, tid, players)
    for batch in plans[0]["batches"]:
        room.step({"step": "deal_first_hands", "tournament_id": tid, "batch": batch})
    room.fire_start_schedule(tid)
    # Then the tables were dealt their first hand once, and nobody paid or was refunded twice
    assert snapshot(room, tid, players) == dealt
    assert sorted(dealt["tables"]) == sorted(tables) and {t[1] for t in dealt["tables"].values()} == {1}
    assert dealt["balances"] == after_close["balances"] == {p: DEPOSIT - BUY_IN - ENTRY_FEE for p in players}
    assert dealt["pool"] == 8 * BUY_IN and len(room.adapters.workflows.started) == 1


def test_a_time_out_delivered_twice_in_one_batch_and_again_later_takes_the_decision_once(room: Room) -> None:
    # Given a running table whose first decision armed its time-out
    tid = "tmo"
    players = funded_field(room, tid, 4)
    (table,) = start(room, tid)
    (armed,) = [m for m in room.adapters.timers.armed if isinstance(m, TimeoutDue)]
    before = table_view(room, tid, table, players[0])
    # When its delay passes and SQS delivers it twice in one batch, then once more: the time bank starts once
    room.clock.advance(15)
    room.adapters.timers.clear()
    assert room.deliver_timeouts(armed, armed) == []
    (bank,) = [m for m in room.adapters.timers.armed if isinstance(m, TimeoutDue) and m.time_bank]
    assert room.deliver_timeouts(armed) == []
    # And so does the bank's own time-out when the bank runs out
    room.clock.advance(30)
    room.adapters.timers.clear()
    assert room.deliver_timeouts(bank, bank) == []
    once = snapshot(room, tid, players)
    assert room.deliver_timeouts(bank, armed) == []
    # Then the decision was taken once (checked or folded), and the redelivery moved nothing
    after = table_view(room, tid, table, players[0])
    assert before["to_act"]["seq"] == armed.seq
    assert after["seq"] == before["seq"] + 1 or after["hand"] > before["hand"]
    assert once["tables"][table][0] == snapshot(room, tid, players)["tables"][table][0]
    assert snapshot(room, tid, players) == once
    # And a stale time-out, for a decision the player took since, is a no-op too
    actor = after["to_act"]["player"]
    view = table_view(room, tid, table, actor)
    decision = "check" if view["to_act"]["can_check"] else "call"
    body = {"hand": view["hand"], "seq": view["to_act"]["seq"], "action": decision}
    status, _ = room.api("POST", f"/tournaments/{tid}/tables/{table}/actions", actor, body)
    assert status == 200
    acted = snapshot(room, tid, players)
    stale = TimeoutDue(
        tournament_id=tid, table=table, hand=view["hand"], seq=view["to_act"]["seq"], seat=view["to_act"]["seat"]
    )
    assert room.deliver_timeouts(stale, stale) == []
    assert snapshot(room, tid, players) == acted


def test_a_hand_end_delivered_twice_in_one_batch_and_again_later_is_coordinated_once(room: Room) -> None:
    # Given two tables where a hand has just ended (everybody folded to the big blind)
    tid = "hends"
    players = funded_field(room, tid, 8)
    tables = start(room, tid)
    table = tables[0]
    hold_for_the_coordination(room.adapters.store, tid, table)
    while not room.adapters.coordination.queue:
        view = table_view(room, tid, table, players[0])
        actor = view["to_act"]["player"]
        body = {"hand": view["hand"], "seq": view["to_act"]["seq"], "action": "fold"}
        status, answer = room.api("POST", f"/tournaments/{tid}/tables/{table}/actions", actor, body)
        assert status == 200, answer
    (ended,) = list(room.adapters.coordination.queue)
    room.adapters.coordination.queue.clear()
    assert isinstance(ended, HandEnded) and ended.hand == 1
    # When the FIFO queue delivers its record twice in one batch, then again in a later batch
    assert room.deliver_hand_ends(ended, ended) == []
    once = snapshot(room, tid, players)
    assert room.deliver_hand_ends(ended) == []
    # Then the next hand was dealt once, and nothing else moved
    assert once["tables"][table][1] == 2
    assert snapshot(room, tid, players) == once
    assert table_view(room, tid, table, players[0])["hand"] == 2


def test_the_sweeper_twice_refunds_a_tournament_that_never_started_once(room: Room) -> None:
    # Given a tournament whose start never came, 15 minutes past its start time
    tid = "late"
    players = funded_field(room, tid, 3)
    _, details = room.api("GET", f"/tournaments/{tid}", players[0])
    room.clock.set(_at(details["start_at"]) + timedelta(minutes=16))
    # When the sweeper runs twice
    first, second = room.sweep(), room.sweep()
    # Then it refunded everyone once
    assert tid in first["refunded"] and tid not in second["refunded"]
    assert {p: wallet(room, p) for p in players} == dict.fromkeys(players, DEPOSIT)
    assert room.adapters.store.ledger.balance(pool_account(tid)) == 0


def test_the_watchdog_twice_terminates_a_stalled_tournament_once(room: Room) -> None:
    # Given a running table whose time-out was lost, quiet for 6 minutes
    tid = "stall"
    players = funded_field(room, tid, 4)
    start(room, tid)
    room.adapters.timers.clear()
    room.clock.advance(6 * 60)
    # When the watchdog runs twice
    first, second = room.watch(), room.watch()
    # Then the tournament was terminated once, and one recovery workflow was started
    assert tid in first["terminated"] and tid not in second["terminated"]
    assert room.adapters.workflows.recovering == [tid]
    _, details = room.api("GET", f"/tournaments/{tid}", players[0])
    assert details["status"] == "terminated"


# -- 4. concurrent actions ---------------------------------------------------------------------------------------------


def test_two_identical_actions_at_once_one_is_accepted_the_other_is_a_409(room: Room, serial_aws: None) -> None:
    # Given a running table and the player to act, who sends the same decision twice at once (two environments)
    tid = "twice"
    players = funded_field(room, tid, 4)
    (table,) = start(room, tid)
    view = table_view(room, tid, table, players[0])
    actor = view["to_act"]["player"]
    body = {"hand": view["hand"], "seq": view["to_act"]["seq"], "action": "call"}
    before = snapshot(room, tid, players)["tables"][table]
    handlers = [api_instance(room.services) for _ in range(2)]

    def send(handler: Callable[[dict[str, Any], Any], dict[str, Any]]) -> Callable[[], tuple[int, Any]]:
        event = http_event("POST", f"/tournaments/{tid}/tables/{table}/actions", body=body, player=actor)
        return lambda: (lambda r: (r["statusCode"], answer_json(r)))(handler(event, FakeContext()))

    # When both arrive together
    answers = sorted(at_once([send(h) for h in handlers]), key=lambda a: a[0])
    # Then exactly one is accepted and the other is a 409 JSON error
    (ok, _), (conflict, refused) = answers
    assert (ok, conflict) == (200, 409), answers
    assert refused["error"] in ("stale_action", "stale_version") and refused["message"]
    # And the table advanced once
    after = snapshot(room, tid, players)["tables"][table]
    assert after[0] == before[0] + 1
    assert table_view(room, tid, table, actor)["seq"] == view["seq"] + 1
