"""A table deals its own next hand when nothing above it is to decide; the other hand ends reach the coordination.

docs/rules.md, 'Who deals'; ``services/dealer.py``, ``domain/dealing.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.messages import HandEnded
from tourney.services.records import DealingRecord
from tourney.simulation.aws.records import stored_item

from tests.support.driver import Driver
from tests.unit.services.conftest import started


def _everyone_folds(services: Services, tid: str, table: str) -> int:
    """Play the hand at ``table``: every player folds to the big blind. The hand's number."""
    store = services.adapters.store
    hand = store.tables.get(tid, table).table.hand_number
    while (w := store.tables.get(tid, table).table.awaiting()) is not None and w.hand == hand:
        services.play.act(tid, table, w.player, w.hand, w.seq, "fold")
    return hand


def _two_all_in(services: Services, tid: str, table: str) -> int:
    """Play the hand at ``table``: the first to act goes all in, the next calls, the rest fold. The hand's number."""
    store = services.adapters.store
    hand = store.tables.get(tid, table).table.hand_number
    calls = 0
    while (w := store.tables.get(tid, table).table.awaiting()) is not None and w.hand == hand:
        options = store.tables.get(tid, table).table.hand.options()  # type: ignore[union-attr]
        assert options is not None
        if calls == 0 and options.max_raise_to is not None:
            services.play.act(tid, table, w.player, w.hand, w.seq, "raise", options.max_raise_to)
        elif calls <= 1:
            services.play.act(tid, table, w.player, w.hand, w.seq, "call")
        else:
            services.play.act(tid, table, w.player, w.hand, w.seq, "fold")
        calls += 1
    return hand


def _sent(services: Services, tid: str, table: str) -> list[HandEnded]:
    return [m for m in services.adapters.coordination.sent if isinstance(m, HandEnded) and m.table == table]


def test_rule_11_a_hand_nobody_busted_in_is_settled_and_the_next_dealt_in_the_write_that_ended_it(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a freezeout of two tables of six, every table dealt its first hand
    tid = started(services, create, clock, players=12)
    store = services.adapters.store
    connection = "watcher"
    services.adapters.pushes.connect(connection)
    services.adapters.pushes.subscribe(connection, tid, "1")

    # When everyone folds to the big blind at table 1
    hand = _everyone_folds(services, tid, "1")

    # Then no hand end reached the coordination: the table stored the hand, settled it and dealt the next
    record = store.tables.get(tid, "1")
    assert _sent(services, tid, "1") == []
    assert record.table.hand_number == hand + 1 and record.table.hand_in_progress
    assert record.coordinated_hand == hand
    assert store.hands.get(tid, "1", hand).hand_number == hand
    # And the watchers saw the hand's end (its winner) before the next deal
    events = [
        (m["event"], m["table"]["hand"], m["table"]["hand_in_progress"])
        for m in services.adapters.pushes.received(connection)
    ]
    assert events[-2:] == [("action", hand, False), ("hand_dealt", hand + 1, True)]
    # And a late duplicate of that hand's end changes nothing
    assert services.coordinator.on_hand_ended(HandEnded(tournament_id=tid, table="1", hand=hand)).duplicate


def test_rule_9_a_hand_with_a_bust_goes_to_the_coordination_which_places_and_deals(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given the same freezeout
    tid = started(services, create, clock, players=12)
    store = services.adapters.store

    # When two players at table 1 go all in with equal stacks (one of them busts)
    hand = _two_all_in(services, tid, "1")

    # Then that hand's end went to the coordination, and the table waits for it
    record = store.tables.get(tid, "1")
    assert [m.hand for m in _sent(services, tid, "1")] == [hand]
    assert record.table.hand_number == hand and not record.table.hand_in_progress
    # And the coordination places the players out and deals the table's next hand
    Driver(services).drain_coordinator()
    assert any(e.placing is not None for e in store.entrants.list(tid))
    assert store.tables.get(tid, "1").table.hand_number == hand + 1


def test_rule_11_the_largest_table_two_above_the_smallest_sends_its_hand_end_and_gives_a_player(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given two tables of six, and table 1 losing players to all-ins until it is two or more below table 2
    tid = started(services, create, clock, players=12)
    store = services.adapters.store
    driver = Driver(services)
    while len(store.tables.get(tid, "1").table.seats) > 4:
        _two_all_in(services, tid, "1")
        driver.drain_coordinator()
    before = len(store.tables.get(tid, "1").table.seats)

    # When table 2 plays a hand nobody busts in
    hand = _everyone_folds(services, tid, "2")

    # Then its end went to the coordination, not dealt at the table, and the coordination moved a player
    assert [m.hand for m in _sent(services, tid, "2")] == [hand]
    assert not store.tables.get(tid, "2").table.hand_in_progress
    driver.drain_coordinator()
    sizes = [len(store.tables.get(tid, t).table.seats) for t in ("1", "2")]
    assert sizes[0] > before and sizes[1] < 6 and abs(sizes[0] - sizes[1]) <= 1
    assert store.tables.get(tid, "2").table.hand_number == hand + 1


def test_the_dealing_orders_of_a_default_freezeout_stay_under_one_kilobyte_as_stored(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a started freezeout (the start published its dealing orders)
    tid = started(services, create, clock, players=12)
    found = services.adapters.store.dealing.get(tid)

    # Then they let the tables deal, at one read unit a hand end and one write unit when they change
    assert isinstance(found, DealingRecord) and found.orders.on_their_own
    assert stored_item(found).size < 1_024
