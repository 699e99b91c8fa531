"""Rule 2: a Sit&Go starts when ``max_players`` have registered, also after an unregistration.

The registration that fills it closes registration at once (the fill is the
start), conditional on the counts it read: an unregistration that lands
before stops it, and the next registration that fills the field starts it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.errors import NotStartedYet, RegistrationClosed
from tourney.domain.ledger import player_account
from tourney.domain.registration import TournamentStatus
from tourney.services.commands import CreateTournament
from tourney.services.records import RegistrationState

from tests.support.driver import Driver
from tests.unit.services.conftest import fund

PLAYERS = [f"p{i}" for i in range(5)]


def sit_and_go(services: Services) -> str:
    command = CreateTournament(name="SNG", format="sng", buy_in=1_000, entry_fee=100, max_players=4, tournament_id="s1")
    tid = services.admin.create_tournament(command).id
    fund(services, *PLAYERS)
    return tid


def run_start_workflow(services: Services) -> None:
    """The start workflow as Step Functions runs it: a step that raises fails the execution."""
    with contextlib.suppress(NotStartedYet):
        Driver(services).run_workflows()


def registered(services: Services, tid: str) -> list[str]:
    return sorted(r.player_id for r in services.adapters.store.registrations.list(tid, RegistrationState.REGISTERED))


def test_rule_2_a_sit_and_go_refilled_after_an_unregistration_starts() -> None:
    # Given a Sit&Go of 4 with 3 registered
    services = bootstrap_memory(clock=FrozenClock(), rng=random.Random(8))
    tid = sit_and_go(services)
    for player in PLAYERS[:3]:
        services.registration.register(tid, player)
    store = services.adapters.store
    # When p1 unregisters just as p3's registration fills it (at the commit right after p3's)
    commits = 0
    busy = False

    def p1_leaves() -> None:
        nonlocal commits, busy
        if busy:
            return
        commits += 1
        if commits == 2:
            busy = True
            try:
                services.registration.unregister(tid, "p1")
            except RegistrationClosed:
                pass
            finally:
                busy = False

    store.before_commit = p1_leaves
    services.registration.register(tid, "p3")
    run_start_workflow(services)
    store.before_commit = None
    # And p4 registers if there is a seat again, then the start workflow runs
    if len(registered(services, tid)) < 4:
        services.registration.register(tid, "p4")
    run_start_workflow(services)
    # Then the Sit&Go runs with a full field of 4
    assert store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert len(store.entrants.list(tid)) == 4
    store.money.verify_invariants()


def test_rule_2_a_full_sit_and_go_is_closed_and_starts(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a Sit&Go of 4 just filled
    tid = sit_and_go(services)
    for player in PLAYERS[:4]:
        services.registration.register(tid, player)
    # When a player tries to leave before the start workflow ran
    with pytest.raises(RegistrationClosed):
        services.registration.unregister(tid, "p1")
    run_start_workflow(services)
    # Then it was refused, nothing refunded, and the Sit&Go runs with all four
    assert services.adapters.store.ledger.balance(player_account("p1")) == 10_000 - 1_100
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
    assert len(services.adapters.store.entrants.list(tid)) == 4


def test_rule_2_a_sit_and_go_that_lost_its_start_request_is_started_by_the_sweeper(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a Sit&Go filled whose start request was lost
    tid = sit_and_go(services)
    workflows = services.adapters.workflows
    real = workflows.start_tournament

    def lost(tournament_id: str) -> None:
        monkeypatch.setattr(workflows, "start_tournament", real)
        raise RuntimeError("throttled")

    for player in PLAYERS[:3]:
        services.registration.register(tid, player)
    monkeypatch.setattr(workflows, "start_tournament", lost)
    with pytest.raises(RuntimeError):
        services.registration.register(tid, "p3")
    assert workflows.started == []
    # When the sweeper runs
    services.recovery.sweep()
    run_start_workflow(services)
    # Then it starts
    assert services.adapters.store.tournaments.get(tid).status is TournamentStatus.RUNNING
