"""Rule 19 (and 17.6): an operator's cancel racing the start gives exactly one outcome.

Either the tournament is cancelled, everyone refunded and nothing dealt, or it
runs and the cancel is refused (409). The cancel (or a terminate before the
start, which cancels) lands at every commit of the start workflow in turn.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.errors import AlreadyStarted
from tourney.domain.ledger import player_account
from tourney.domain.registration import TournamentStatus
from tourney.services.commands import CreateTournament

from tests.support.driver import Driver
from tests.unit.services.conftest import fund

PLAYERS = [f"p{i}" for i in range(8)]
START_COMMITS = 9
"""The start of 6 players on 2 tables, 2 wait-listed: seal, refund, plan, start, 2 seats, clock, 2 deals."""


def registered(services: Services, clock: FrozenClock) -> str:
    command = CreateTournament(
        name="Race", format="freezeout", buy_in=1_000, entry_fee=100, max_players=6, seats_per_table=3,
        start_at=clock.now() + timedelta(hours=1), tournament_id="t1",
    )  # fmt: skip
    tid = services.admin.create_tournament(command).id
    fund(services, *PLAYERS)
    for player in PLAYERS:
        services.registration.register(tid, player)
    return tid


def cancel_at_commit(act: str, k: int) -> tuple[Services, str, object]:
    """Run the start workflow with the operator's act landing just before its ``k``-th commit."""
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(3))
    tid = registered(services, clock)
    clock.advance(3_600)
    store = services.adapters.store
    seen = 0
    busy = False
    answer: object = None

    def hook() -> None:
        nonlocal seen, busy, answer
        if busy:
            return
        seen += 1
        if seen != k:
            return
        busy = True
        try:
            if act == "cancel":
                answer = services.admin.cancel(tid, "op", "race")
            else:
                answer = services.admin.terminate(tid, "op", "race")
        except AlreadyStarted as refused:
            answer = refused
        finally:
            busy = False

    store.before_commit = hook
    services.start.start_due(tid)
    driver = Driver(services)
    driver.run_workflows()
    store.before_commit = None
    driver.drain_coordinator()
    if answer is None:  # the start had finished: the act lands after it
        try:
            answer = services.admin.cancel(tid, "op", "late") if act == "cancel" else None
        except AlreadyStarted as refused:
            answer = refused
    return services, tid, answer


@pytest.mark.parametrize("k", range(1, START_COMMITS + 2))
def test_rule_19_a_cancel_racing_the_start_either_cancels_with_refunds_or_is_refused(k: int) -> None:
    services, tid, answer = cancel_at_commit("cancel", k)
    store = services.adapters.store
    t = store.tournaments.get(tid)
    balances = {p: store.ledger.balance(player_account(p)) for p in PLAYERS}
    dealt = [r.table_id for r in store.tables.list(tid) if r.table.hand_number > 0]
    if t.status is TournamentStatus.CANCELLED:
        # Then everyone is refunded in full, nothing was dealt, and the cancel answered "cancelled"
        assert not isinstance(answer, Exception)
        assert balances == dict.fromkeys(PLAYERS, 10_000)
        assert dealt == []
    else:
        # Or the tournament runs, the cancel was refused and only the waiting list was refunded
        assert t.status is TournamentStatus.RUNNING
        assert isinstance(answer, AlreadyStarted)
        assert sorted(balances.values()) == [8_900] * 6 + [10_000] * 2
        assert len(dealt) == 2
    store.money.verify_invariants()


@pytest.mark.parametrize("k", range(1, START_COMMITS + 2))
def test_rule_19_a_terminate_racing_the_start_never_both_cancels_and_deals(k: int) -> None:
    services, tid, _ = cancel_at_commit("terminate", k)
    store = services.adapters.store
    t = store.tournaments.get(tid)
    dealt = [r.table_id for r in store.tables.list(tid) if r.table.hand_number > 0]
    balances = {p: store.ledger.balance(player_account(p)) for p in PLAYERS}
    if t.status is TournamentStatus.CANCELLED:
        assert dealt == [] and balances == dict.fromkeys(PLAYERS, 10_000)
    else:
        # Running or terminated (recovery takes over): nobody was refunded but the waiting list
        assert t.status in (TournamentStatus.RUNNING, TournamentStatus.TERMINATED)
        assert sorted(balances.values()) == [8_900] * 6 + [10_000] * 2
    store.money.verify_invariants()


def test_rule_19_cancel_before_the_start_refunds_everyone_and_the_start_then_does_nothing() -> None:
    # Given a tournament with a full field and a waiting list
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(3))
    tid = registered(services, clock)
    # When an operator cancels it, twice, and the start time comes
    first = services.admin.cancel(tid, "op", "no dealers")
    again = services.admin.cancel(tid, "op", "no dealers")
    clock.advance(3_600)
    assert not services.start.start_due(tid).started
    # Then it is cancelled, everyone refunded once, the schedule removed and the cancel recorded
    assert (first.status, again.status) == ("cancelled", "cancelled")
    assert first.refunded == 8 and again.refunded == 0
    store = services.adapters.store
    assert {p: store.ledger.balance(player_account(p)) for p in PLAYERS} == dict.fromkeys(PLAYERS, 10_000)
    t = store.tournaments.get(tid)
    assert (t.status, t.cancelled_by, t.cancel_reason) == (TournamentStatus.CANCELLED, "op", "no dealers")
    assert t.ended_at is not None and tid not in services.adapters.start_scheduler.schedules
    store.money.verify_invariants()


def test_rule_19_cancel_once_running_is_409() -> None:
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(3))
    tid = registered(services, clock)
    clock.advance(3_600)
    services.start.start_due(tid)
    Driver(services).run_workflows()
    with pytest.raises(AlreadyStarted):
        services.admin.cancel(tid, "op", "too late")
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
