"""A rebuy window whose close was lost still closes (found by the slow chaos run, seed 1585137824).

docs/rules.md, 'Rebuys and add-ons': a player who busts in a rebuy period may rebuy
within the decision time or is eliminated. The coordinator opens the window
(the table holds the busted players, ``rebuy_pending``) and arms its close
(``RebuyDue``) after the write; an invocation that died between the two left
the table waiting forever: the redelivered hand end was a no-op and the
watchdog skipped tables with a window open. Now the redelivered hand end arms
the close again for what is left of the window, and the watchdog closes a
window open a minute past its length (the decision time).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue

from tests.unit.services.conftest import started


def _window_opened(services: Services, create: Callable[..., str], clock: FrozenClock) -> tuple[str, HandEnded]:
    """A rebuy tournament whose table holds busted players, its window's close lost with the invocation."""
    tid = started(services, create, clock, players=6, fmt="rebuy", rebuy_levels=(1, 3))
    store, coordination, timers = services.adapters.store, services.adapters.coordination, services.adapters.timers
    for _ in range(50):  # every decision all in or a call: a player busts within a hand or two
        record = store.tables.get(tid, "1")
        awaiting = record.table.awaiting()
        if awaiting is not None:
            hand = record.table.hand
            assert hand is not None
            options = hand.options()
            assert options is not None
            clock.advance(1)
            if options.max_raise_to is not None:
                kind = "raise" if options.to_call else "bet"
                services.play.act(tid, "1", awaiting.player, awaiting.hand, awaiting.seq, kind, options.max_raise_to)
            else:
                services.play.act(tid, "1", awaiting.player, awaiting.hand, awaiting.seq, "call")
            continue
        ended = coordination.take()
        assert isinstance(ended, HandEnded)
        services.coordinator.on_hand_ended(ended)
        if store.tables.get(tid, "1").rebuy_pending:
            timers.clear()  # the invocation died after opening the window, before arming its close
            return tid, ended
    raise AssertionError("nobody busted")


def test_rebuys_a_redelivered_hand_end_arms_the_lost_close_of_the_rebuy_window_for_what_is_left(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a window opened (its close lost), and 4 of its 15 seconds gone
    tid, ended = _window_opened(services, create, clock)
    opened = services.adapters.store.hands.get(tid, "1", ended.hand).ended_at
    clock.advance(4)
    # When the queue delivers the hand end again (the invocation failed)
    services.coordinator.on_hand_ended(ended)
    # Then the close is armed for the 11 seconds left, and it closes the window
    (close,) = services.adapters.timers.armed
    assert close == RebuyDue(tournament_id=tid, table="1", hand=ended.hand)
    assert services.adapters.timers.next_due() == opened + timedelta(seconds=15)
    clock.set(opened + timedelta(seconds=15))
    services.timeouts.on_timeout(services.adapters.timers.due(clock.now())[0])
    closed = services.adapters.coordination.take()
    assert isinstance(closed, RebuyClosed)
    services.coordinator.on_hand_ended(closed)
    record = services.adapters.store.tables.get(tid, "1")
    assert record.rebuy_pending == () and record.coordinated_hand == ended.hand


def test_rebuys_the_watchdog_closes_a_rebuy_window_whose_close_was_lost_a_minute_after_it_ended(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a window opened, its close lost, and no redelivery
    tid, ended = _window_opened(services, create, clock)
    # When the watchdog runs while the window (15 s) and a minute more have not yet passed: nothing is sent
    clock.advance(74)
    assert services.recovery.watch().resent == ()
    # When it runs once they have
    clock.advance(2)
    report = services.recovery.watch()
    # Then it sent the window's close to the coordinator, which settles the hand
    assert report.resent == ("1",)
    closed = services.adapters.coordination.take()
    assert closed == RebuyClosed(tournament_id=tid, table="1", hand=ended.hand)
    services.coordinator.on_hand_ended(closed)
    record = services.adapters.store.tables.get(tid, "1")
    assert record.rebuy_pending == () and record.coordinated_hand == ended.hand
