"""Rule 19: the last player still in play cannot be disqualified, and a disqualified player is never paid.

docs/rules.md, 'Conduct and management': "Disqualifying the last player still in
play is refused (409): a tournament always has a winner who was not
disqualified. A disqualified player is never paid a prize, a share or a refund
by rule 17." Refused one after the other and when two disqualifications race
(at one table or at two), so every hand end is settled and the pool goes to
its places; and a hand end the coordinator cannot settle is never dropped as
stale: its trigger fails, so it is retried and then dead-lettered (an alarm).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import Services
from tourney.domain import errors
from tourney.domain.errors import Conflict
from tourney.domain.ledger import player_account
from tourney.domain.registration import TournamentStatus

from tests.support.driver import Driver
from tests.unit.services.conftest import started
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand


def balance(services: Services, player: str) -> int:
    return services.adapters.store.ledger.balance(player_account(player))


def audited(services: Services, player: str) -> list[str]:
    return [line.act for line in services.audit.listing(player=player).records]


def at_table(services: Services, tid: str, table: str) -> list[str]:
    return list(services.adapters.store.tables.get(tid, table).table.players.values())


def compensate_to_the_end(services: Services, tid: str) -> str:
    outcome = ""
    for _ in range(100):
        step = services.recovery.compensate(tid)
        if step.outcome == "retry":  # a hand's end not settled yet: the coordinator settles it first
            Driver(services).drain_coordinator()
            continue
        outcome = step.outcome if step.outcome != "nothing" else outcome
        if not getattr(step, "more", False):
            return outcome
    raise AssertionError("compensation did not end")


def racing(services: Services, first: Callable[[], Any], second: Callable[[], Any]) -> list[BaseException | None]:
    """Run ``first`` and, after its reads and before its commit, ``second`` whole: two operators at once."""
    store = services.adapters.store
    original = store.unit_of_work
    outcomes: list[BaseException | None] = []

    def interleaved() -> Any:
        store.unit_of_work = original  # type: ignore[method-assign]
        outcomes.append(attempt(second))
        return original()

    def attempt(call: Callable[[], Any]) -> BaseException | None:
        try:
            call()
        except Conflict as refused:
            return refused
        return None

    store.unit_of_work = interleaved  # type: ignore[method-assign]
    try:
        outcomes.insert(0, attempt(first))
    finally:
        store.unit_of_work = original  # type: ignore[method-assign]
    return outcomes


def test_rule_19_disqualifying_the_last_player_in_play_is_refused_and_the_other_wins(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a heads-up tournament where an operator disqualified p0 during the hand (its end not yet settled)
    tid = started(services, create, clock, players=2)
    store = services.adapters.store
    services.management.disqualify(tid, "p0", "olga", "collusion")
    assert not store.tables.get(tid, "1").table.hand_in_progress
    before = balance(services, "p1")
    # When an operator disqualifies p1, the last player still in play
    with pytest.raises(Conflict):
        services.management.disqualify(tid, "p1", "olga", "collusion")
    # Then it is refused and changes nothing: no record, p1 still in play
    assert audited(services, "p1") == []
    entrant = store.entrants.get(tid, "p1")
    assert entrant is not None and entrant.disqualified_at is None
    # And the hand end is settled: p1 wins the pool, p0 takes no place and nothing
    Driver(services).drain_coordinator()
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    winner = store.entrants.get(tid, "p1")
    assert winner is not None and winner.placing is not None and winner.placing.place == 1
    assert balance(services, "p1") == before + winner.placing.prize > before
    assert store.entrants.get(tid, "p0").placing is None  # type: ignore[union-attr]
    store.money.verify_invariants()


def test_rule_19_two_disqualifications_racing_for_the_last_two_players_at_one_table_one_is_refused(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a heads-up tournament in its first hand
    tid = started(services, create, clock, players=2)
    # When two operators disqualify p0 and p1 at the same moment
    outcomes = racing(
        services,
        lambda: services.management.disqualify(tid, "p0", "olga", "collusion"),
        lambda: services.management.disqualify(tid, "p1", "ivan", "collusion"),
    )
    # Then exactly one is refused, and the tournament ends with a winner who was not disqualified
    assert len(outcomes) == 2 and sum(o is not None for o in outcomes) == 1
    Driver(services).drain_coordinator()
    store = services.adapters.store
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    winners = [e for e in store.entrants.list(tid) if e.placing is not None and e.placing.place == 1]
    assert len(winners) == 1 and winners[0].disqualified_at is None
    store.money.verify_invariants()


def test_rule_19_the_last_player_in_play_at_a_table_is_refused_while_others_play_elsewhere(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given four players at two heads-up tables, one player of each disqualified during its hand
    tid = started(services, create, clock, players=4, seats_per_table=2)
    first, second = at_table(services, tid, "1"), at_table(services, tid, "2")
    services.management.disqualify(tid, first[0], "olga", "collusion")
    services.management.disqualify(tid, second[0], "olga", "collusion")
    # When an operator disqualifies the last player in play at each table (their hands' ends not yet settled)
    for player in (first[1], second[1]):
        with pytest.raises(Conflict) as refused:
            services.management.disqualify(tid, player, "olga", "chip dumping")
        # Then each is refused (409): that hand's end must leave a player with chips at the table
        assert refused.value.code == "last_player_in_play"
        assert audited(services, player) == []
    # And the tournament plays to a winner who was not disqualified, the two others taking no place
    Driver(services).play_to_the_end(tid)
    store = services.adapters.store
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    placed = {e.player_id: e.placing.place for e in store.entrants.list(tid) if e.placing is not None}
    assert sorted(placed.values()) == [1, 2] and set(placed) == {first[1], second[1]}
    store.money.verify_invariants()


@pytest.mark.parametrize("error", [errors.Conflict, errors.NotFound, errors.IllegalAction, errors.NotYourTurn])
def test_rule_19_a_trigger_fails_on_a_refusal_that_is_not_stale_or_a_duplicate(error: type[Exception]) -> None:
    from tourney.entrypoints.triggers import unless_stale

    # Given a message whose service call raises a refusal that does not say 'stale or duplicate'
    def call() -> None:
        raise error("the last hand must leave one player with chips")

    # When a trigger runs it, then the error is raised: the batch fails, is retried, then dead-lettered
    with pytest.raises(error):
        unless_stale("hand_ended", call)


def disqualify_one_not_to_act(services: Services, tid: str) -> str:
    """An operator disqualifies a player at table 1 who is not the one to act: that player."""
    awaiting = services.adapters.store.tables.get(tid, "1").table.awaiting()
    assert awaiting is not None
    victim = next(p for p in at_table(services, tid, "1") if p != awaiting.player)
    services.management.disqualify(tid, victim, "olga", "collusion")
    return victim


def terminated_past_its_window(services: Services, clock: FrozenClock, tid: str) -> None:
    """An operator terminates ``tid``, the recovery workflow cancels its hands, and the restart window runs out."""
    services.admin.terminate(tid, "olga", "server fault")
    services.recovery.cancel_hands(tid)
    clock.advance(20 * 60)


def test_rule_19_a_trigger_ignores_a_stale_message() -> None:
    from tourney.entrypoints.triggers import unless_stale

    # Given a decision already taken (a stale time-out), then it is logged and ignored
    def call() -> None:
        raise errors.StaleAction("the decision was taken")

    assert unless_stale("timeout", call) is None


def test_rule_19_a_disqualified_player_is_not_refunded_by_a_rollback(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given p-x disqualified during the first hand, its end settled
    tid = started(services, create, clock)
    store = services.adapters.store
    victim = disqualify_one_not_to_act(services, tid)
    fold_to_the_end_of_the_hand(services, tid)
    Driver(services).drain_coordinator()
    balances = {p: balance(services, p) for p in (f"p{i}" for i in range(6))}
    # When the tournament is terminated in its first 30 minutes and compensated (rule 17.3b: rollback)
    terminated_past_its_window(services, clock, tid)
    assert compensate_to_the_end(services, tid) == "rollback"
    # Then every other entrant gets back buy-in and fee, and the disqualified player nothing
    assert balance(services, victim) == balances[victim]
    assert all(balance(services, p) == b + 1_100 for p, b in balances.items() if p != victim)
    store.money.verify_invariants()


def test_rule_19_a_disqualified_player_still_seated_takes_no_share_of_a_payout(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given three players past the first 30 minutes, p-x disqualified in a hand whose end was never settled
    tid = started(services, create, clock, players=3)
    store = services.adapters.store
    clock.advance(31 * 60)
    victim = disqualify_one_not_to_act(services, tid)
    fold_to_the_end_of_the_hand(services, tid)
    store_queue = services.adapters.coordination.queue
    store_queue.clear()  # the hand end is lost: the disqualified player is still seated with chips
    assert victim in at_table(services, tid, "1")
    before = balance(services, victim)
    # When the tournament is terminated and compensated (a freezeout after 30 minutes: prize-pool payout)
    terminated_past_its_window(services, clock, tid)
    assert compensate_to_the_end(services, tid) == "payout"
    # Then the disqualified player is paid nothing, and the whole pool goes to the two others
    assert balance(services, victim) == before
    store.money.verify_invariants()
    assert store.money.summary(tid).prize_pool_held == 0


def test_rule_17_the_plan_is_frozen_only_once_every_hand_that_ended_is_settled(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a freezeout past its first 30 minutes whose last hand ended but whose end the coordinator never got
    tid = started(services, create, clock, players=3)
    store = services.adapters.store
    clock.advance(31 * 60)
    fold_to_the_end_of_the_hand(services, tid)
    services.adapters.coordination.queue.clear()
    hand = store.tables.get(tid, "1").table.hand_number
    assert store.tables.get(tid, "1").coordinated_hand < hand
    before = store.money.summary(tid).prize_pool_held
    # When it is terminated, its window runs out, and the compensation's first step runs
    terminated_past_its_window(services, clock, tid)
    step = services.recovery.compensate(tid)
    # Then nothing is frozen or paid yet: it waits for that hand's end, which it asked the coordinator for again
    assert step.outcome == "retry" and step.seconds_left > 0
    assert store.coordinators.get(tid).state.compensation is None
    assert store.money.summary(tid).prize_pool_held == before
    assert len(services.adapters.coordination.queue) == 1
    # When the coordinator settles it, Then the compensation is frozen from the settled table and paid out
    Driver(services).drain_coordinator()
    assert store.tables.get(tid, "1").coordinated_hand == hand
    assert compensate_to_the_end(services, tid) == "payout"
    store.money.verify_invariants()
    assert store.money.summary(tid).prize_pool_held == 0
