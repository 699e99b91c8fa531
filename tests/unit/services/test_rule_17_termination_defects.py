"""Rule 17: from the termination on nothing moves at the tournament until it restarts or is compensated.

No hand is dealt; no action, rebuy, add-on, away or back is accepted (a 409
``Conflict``, nothing changed); hand ends that were pending are settled
(their places and prizes) without dealing the next hand (docs/rules.md,
'Termination and recovery').
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.errors import Conflict
from tourney.domain.ledger import player_account
from tourney.services.commands import CreateTournament
from tourney.services.messages import HandEnded

from tests.support.driver import Driver
from tests.support.hand_ends import hold_for_the_coordination
from tests.unit.services.conftest import fund, started


def fold_to_the_end_of_the_hand(services: Services, tid: str, table: str = "1") -> int:
    """Everyone folds until the hand ends; its ``HandEnded`` is left on the coordinator's queue.

    The dealing orders name the table first (as a break or a final-table redraw due there would), so its hand
    end waits for the coordination instead of the table dealing its next hand itself (``services/dealer.py``).
    """
    store = services.adapters.store
    hold_for_the_coordination(store, tid, table)
    hand = store.tables.get(tid, table).table.hand_number
    while (w := store.tables.get(tid, table).table.awaiting()) is not None and w.hand == hand:
        services.play.act(tid, table, w.player, w.hand, w.seq, "fold")
    return hand


def terminated_after_its_hand_ended(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> tuple[str, int]:
    """A running tournament whose first hand ended, then terminated and its hands cancelled (the hand's end not
    coordinated yet): its id and that hand."""
    tid = started(services, create, clock)
    hand = fold_to_the_end_of_the_hand(services, tid)
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    return tid, hand


def balances(services: Services, players: int = 6) -> dict[str, int]:
    return {f"p{i}": services.adapters.store.ledger.balance(player_account(f"p{i}")) for i in range(players)}


def test_rule_17_terminated_tournament_settles_a_pending_hand_end_without_dealing(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand that ended just before the termination, its end still on the coordinator's queue
    tid = started(services, create, clock)
    hand = fold_to_the_end_of_the_hand(services, tid)
    assert list(services.adapters.coordination.queue) == [HandEnded(tournament_id=tid, table="1", hand=hand)]
    # When an operator terminates and the recovery workflow cancels the hands, then the hand end is coordinated
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    Driver(services).drain_coordinator()
    # Then the hand is settled (coordinated, its history kept) and no next hand is dealt
    record = services.adapters.store.tables.get(tid, "1")
    assert record.coordinated_hand == hand
    assert services.adapters.store.hands.get(tid, "1", hand).hand_number == hand
    assert record.table.hand_number == hand and not record.table.hand_in_progress
    assert record.halted
    assert services.adapters.store.tournaments.get(tid).status == "terminated"


def test_rule_17_terminated_tournament_accepts_no_action(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a terminated tournament whose last hand had ended, the hands cancelled and the hand end coordinated
    tid, hand = terminated_after_its_hand_ended(services, create, clock)
    Driver(services).drain_coordinator()
    before = services.adapters.store.tables.get(tid, "1")
    # When a player acts: on whatever decision the table awaits, else on the next hand's first
    w = before.table.awaiting()
    player, number, seq = (w.player, w.hand, w.seq) if w is not None else (before.table.players[1], hand + 1, 1)
    with pytest.raises(Conflict):
        services.play.act(tid, "1", player, number, seq, "fold")
    # Then nothing changed at the table
    after = services.adapters.store.tables.get(tid, "1")
    assert after.version == before.version and not after.table.hand_in_progress


def test_rule_17_an_action_racing_the_termination_is_voided_with_its_hand(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand in progress; When an action lands after the terminate but before the hands are cancelled
    tid = started(services, create, clock)
    stacks = {sp.player: sp.stack for sp in services.adapters.store.tables.get(tid, "1").table.seats.values()}
    services.admin.terminate(tid, "op", "broken")
    w = services.adapters.store.tables.get(tid, "1").table.awaiting()
    assert w is not None
    services.play.act(tid, "1", w.player, w.hand, w.seq, "call")
    services.recovery.cancel_hands(tid)
    # Then the hand is cancelled: every stack is what it was at the start of the hand, and nothing is dealt
    record = services.adapters.store.tables.get(tid, "1")
    assert {sp.player: sp.stack for sp in record.table.seats.values()} == stacks
    assert not record.table.hand_in_progress and record.halted


def test_rule_17_terminated_tournament_accepts_no_away_or_back(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a terminated tournament (hands cancelled) with p1 marked away before the termination
    tid = started(services, create, clock)
    services.play.away(tid, "p1")
    services.admin.terminate(tid, "op", "broken")
    services.recovery.cancel_hands(tid)
    before = services.adapters.store.tables.get(tid, "1")
    # When p0 marks themself away and p1 comes back
    with pytest.raises(Conflict):
        services.play.away(tid, "p0")
    with pytest.raises(Conflict):
        services.play.back(tid, "p1")
    # Then both are refused and nothing changed
    after = services.adapters.store.tables.get(tid, "1")
    assert after.version == before.version
    seats = {sp.player: sp.away for sp in after.table.seats.values()}
    assert (seats["p0"], seats["p1"]) == (False, True)


def test_rule_17_terminated_tournament_accepts_no_rebuy(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament terminated in its rebuy period
    tid = started(services, create, clock, fmt="rebuy", rebuy_levels=(1, 6))
    services.admin.terminate(tid, "op", "broken")
    money = balances(services)
    # When a player at the starting stack buys a rebuy, before and after the hands are cancelled
    with pytest.raises(Conflict):
        services.play.rebuy(tid, "p0")
    services.recovery.cancel_hands(tid)
    with pytest.raises(Conflict):
        services.play.rebuy(tid, "p0")
    # Then it is refused and no money moved
    assert balances(services) == money
    assert services.adapters.store.entrants.get(tid, "p0").contribution.rebuys == 0  # type: ignore[union-attr]


def test_rule_17_terminated_tournament_accepts_no_add_on(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a rebuy tournament with an add-on in level 2, terminated during level 2
    tid = started(services, create, clock, fmt="rebuy", rebuy_levels=(1, 1), add_on_chips=10_000)
    clock.advance(11 * 60)
    services.admin.terminate(tid, "op", "broken")
    money = balances(services)
    # When a player buys the add-on
    with pytest.raises(Conflict):
        services.play.add_on(tid, "p0")
    # Then it is refused and no money moved
    assert balances(services) == money


def refund_share_run(*, rebuy_after_termination: bool) -> tuple[str, tuple[tuple[str, int], ...], dict[str, int]]:
    """A rebuy tournament with a large guarantee terminated at minute 35, in its rebuy period: refund and share."""
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(5))
    command = CreateTournament(
        name="Rebuy", format="rebuy", buy_in=1_000, entry_fee=100, guarantee=1_000_000,
        start_at=clock.now() + timedelta(hours=1), tournament_id="t1", seats_per_table=6, rebuy_levels=(1, 6),
    )  # fmt: skip
    tid = services.admin.create_tournament(command).id
    fund(services, *(f"p{i}" for i in range(6)))
    for i in range(6):
        services.registration.register(tid, f"p{i}")
    clock.advance(3_600)
    services.start.start_due(tid)
    Driver(services).run_workflows()
    clock.advance(35 * 60)
    services.admin.terminate(tid, "op", "broken")
    if rebuy_after_termination:
        with pytest.raises(Conflict):
            services.play.rebuy(tid, "p0")
    services.recovery.cancel_hands(tid)
    clock.advance(20 * 60)
    step = services.recovery.compensate(tid)
    return step.outcome, step.paid, balances(services)


def test_rule_17_a_rebuy_after_termination_does_not_change_the_refund_share() -> None:
    # Given the same terminated tournament twice; When in one of them a player tries to rebuy after the termination
    plain = refund_share_run(rebuy_after_termination=False)
    tried = refund_share_run(rebuy_after_termination=True)
    # Then both are compensated by refund and share, paying the same to everyone
    assert plain[0] == "refund_share"
    assert tried == plain
