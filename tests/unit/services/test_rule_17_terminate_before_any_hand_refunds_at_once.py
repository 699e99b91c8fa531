"""Rule 17.6: a tournament that dealt no hand is refunded in full at once when an operator terminates or cancels it.

Its start closed registration (the tournament runs, the money is in the
pool) and dealt no hand: its seating step keeps failing, or it is still
seating. An operator who terminates it, or cancels it, gives the start up at
once, as the sweeper does an hour after the start time (``give_up_start``):
the tournament is cancelled and every player is paid back buy-in and fee,
with no 20-minute window and no compensation. A first deal landing at the
same moment either wins (the operator's act then terminates, or the cancel
is refused) or deals nothing: never both a deal and a refund.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain.errors import AlreadyStarted
from tourney.domain.registration import TournamentStatus

from tests.unit.services.conftest import registration_closed

BALANCE = 10_000
PLAYERS = [f"p{i}" for i in range(6)]


def closed_and_never_dealt(services: Services, create: Callable[..., str], clock: FrozenClock, *, seated: bool) -> str:
    """Six players on two tables; the start closed registration and dealt no hand (``seated``: its tables written)."""
    tid, plan = registration_closed(services, create, clock, PLAYERS, BALANCE, seats=3)
    if seated:
        for batch in plan.batches:
            services.start.seat_batch(tid, batch)
    return tid


def balances(services: Services) -> list[int]:
    return [services.accounts.account(p).balance for p in PLAYERS]


def dealt(services: Services, tid: str) -> list[str]:
    return [r.table_id for r in services.adapters.store.tables.list(tid) if r.table.hand_number > 0]


@pytest.mark.parametrize("seated", [False, True])
def test_rule_17_6_an_operators_terminate_of_a_tournament_that_never_dealt_refunds_everyone_at_once(
    services: Services, create: Callable[..., str], clock: FrozenClock, seated: bool
) -> None:
    # Given a tournament whose start closed registration and dealt no hand
    tid = closed_and_never_dealt(services, create, clock, seated=seated)
    assert balances(services) == [BALANCE - 1_100] * 6
    # When an operator terminates it
    answer = services.admin.terminate(tid, "op", "the start keeps failing")
    # Then the start is given up at once: cancelled, everyone refunded in full, no recovery workflow
    assert (answer.status, answer.terminated_at) == ("cancelled", None)
    assert balances(services) == [BALANCE] * 6
    t = services.adapters.store.tournaments.get(tid)
    assert (t.status, t.cancelled_by, t.cancel_reason) == (TournamentStatus.CANCELLED, "op", "the start keeps failing")
    assert t.ended_at is not None and t.terminated_at is None
    assert list(services.adapters.workflows.pending_recoveries) == []
    services.adapters.store.money.verify_invariants()
    # And the start's steps, delivered late, deal nothing; a second terminate and the sweeper refund nobody twice
    assert services.start.deal_first_hands(tid, ["1", "2"]).tables == ()
    assert dealt(services, tid) == []
    assert services.admin.terminate(tid, "op", "again").status == "cancelled"
    assert services.recovery.sweep().refunded == ()
    assert balances(services) == [BALANCE] * 6
    services.adapters.store.money.verify_invariants()


def test_rule_17_6_an_operators_cancel_of_a_tournament_that_never_dealt_refunds_everyone_at_once(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a tournament whose start closed registration and never seated a table
    tid = closed_and_never_dealt(services, create, clock, seated=False)
    # When an operator cancels it (refused with 409 while it ran)
    answer = services.admin.cancel(tid, "op", "the start keeps failing")
    # Then it is cancelled and everyone is refunded in full at once
    assert (answer.status, answer.refunded) == ("cancelled", 6)
    assert answer.cancelled_at == clock.now()
    assert balances(services) == [BALANCE] * 6
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.CANCELLED
    # And a second cancel answers the same and refunds nobody twice
    assert (services.admin.cancel(tid, "op", "again").refunded, balances(services)) == (0, [BALANCE] * 6)
    services.adapters.store.money.verify_invariants()


@pytest.mark.parametrize("act", ["terminate", "cancel"])
def test_rule_17_6_a_first_deal_landing_with_the_operators_act_either_deals_or_is_refunded_never_both(
    services: Services, create: Callable[..., str], clock: FrozenClock, act: str
) -> None:
    # Given a tournament whose tables are seated and not dealt yet
    tid = closed_and_never_dealt(services, create, clock, seated=True)
    store = services.adapters.store
    fired = False

    def first_deal_lands() -> None:
        nonlocal fired
        if not fired:
            fired = True
            services.start.deal_first_hands(tid, ["1", "2"])

    # When the first deal commits while the operator's act reads the tournament (just before its first commit)
    store.before_commit = first_deal_lands
    try:
        if act == "terminate":
            answer: object = services.admin.terminate(tid, "op", "race").status
        else:
            with pytest.raises(AlreadyStarted):
                services.admin.cancel(tid, "op", "race")
            answer = "refused"
    finally:
        store.before_commit = None
    # Then the deal won: nobody is refunded; the terminate terminated the running tournament, the cancel was refused
    assert fired and len(dealt(services, tid)) == 2
    assert balances(services) == [BALANCE - 1_100] * 6
    t = store.tournaments.get(tid)
    if act == "terminate":
        assert answer == "terminated" and t.status is TournamentStatus.TERMINATED
    else:
        assert answer == "refused" and t.status is TournamentStatus.RUNNING
    store.money.verify_invariants()
