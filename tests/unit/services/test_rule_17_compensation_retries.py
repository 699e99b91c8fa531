"""Rule 17.3: compensation of a terminated tournament pays exactly once, whatever fails and whoever retries.

Two regression tests:

* a rebuy tournament with the default ``max_players`` (house revenue sharded)
  credits rebuy and add-on fees to the shard compensation takes them back from;
* compensation is a plan fixed from facts that do not change once terminated,
  posted in idempotent chunks over several steps: a crash after any commit, a
  retry, or two workers racing all end with the same ledger as one clean run.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from tourney.adapters.memory import FrozenClock, MemoryStore
from tourney.bootstrap import Services, bootstrap_memory
from tourney.domain.errors import StaleVersion
from tourney.domain.ledger import AccountKind, EntryKind, overlay_account, player_account, pool_account

from tests.support.driver import Driver
from tests.support.entries import entered

DEPOSIT = 20_000
TID = "rb"


class Crash(Exception):
    """The process dies at a commit (before it applies)."""


def rebuy_tournament(
    players: int,
    *,
    rebuy_levels: tuple[int, int] = (1, 2),
    guarantee: int = 0,
    entry_fee: int = 100,
    seed: int = 3,
) -> tuple[Services, FrozenClock, list[str]]:
    """A running rebuy tournament with the default ``max_players`` (so house revenue is sharded), 10-minute levels."""
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(seed))
    names = [f"p{i:03d}" for i in range(players)]
    _, start_at = entered(
        services, clock, names, DEPOSIT,
        name="Rebuy", format="rebuy", buy_in=1_000, entry_fee=entry_fee, guarantee=guarantee, seats_per_table=9,
        level_minutes=10, rebuy_levels=rebuy_levels, add_on_chips=10_000, tournament_id=TID,
    )  # fmt: skip
    assert services.adapters.store.tournaments.get(TID).house_shards > 1
    clock.set(start_at)
    services.start.start_due(TID)
    Driver(services).run_workflows()
    return services, clock, names


def at_minute(services: Services, clock: FrozenClock, minute: float) -> None:
    started_at = services.adapters.store.tournaments.get(TID).start_at
    assert started_at is not None
    clock.set(started_at + timedelta(minutes=minute))


def play_until(services: Services, clock: FrozenClock, minute: float, seed: int = 1) -> Driver:
    """Bots play (rebuying half the time they bust) until ``minute`` after the start."""
    start_at = services.adapters.store.tournaments.get(TID).start_at
    assert start_at is not None
    until = start_at + timedelta(minutes=minute)
    driver = Driver(services, rng=random.Random(seed), rebuy_chance=0.5)
    while clock.now() < until:
        driver.drain_coordinator()
        if not driver.step(TID):
            due = services.adapters.timers.next_due()
            clock.set(min(until, max(due or until, clock.now())))
        else:
            clock.advance(3)
        driver.fire_due_timers()
    driver.drain_coordinator()
    clock.set(until)
    return driver


def terminate(services: Services, clock: FrozenClock) -> None:
    services.admin.terminate(TID, "op", "servers down")
    services.recovery.cancel_hands(TID)
    clock.advance(20 * 60)


def compensate_until_done(services: Services, **kw: Any) -> list[Any]:
    steps = []
    for _ in range(10_000):
        step = services.recovery.compensate(TID, **kw)
        steps.append(step)
        if not getattr(step, "more", False):
            return steps
    raise AssertionError("compensation did not finish")


def ledger_of(services: Services) -> tuple[dict[str, Any], dict[str, int]]:
    """Every entry of the tournament (key -> kind and legs) and every non-zero balance."""
    money = services.adapters.store.money
    entries = {e.key: (e.kind, sorted((str(leg.account), leg.amount) for leg in e.legs)) for e in money.entries()}
    return entries, {str(a): b for a, b in money.balances().items()}


def house_balances(services: Services) -> dict[str, int]:
    return {
        str(a): b
        for a, b in services.adapters.store.money.balances().items()
        if a.kind is AccountKind.HOUSE and a.owner == TID
    }


def collected(services: Services) -> int:
    return sum(e.contribution.pool_paid for e in services.adapters.store.entrants.list(TID))


def assert_compensated(services: Services) -> None:
    """Ended, every table closed, money conserved to the cent, the pool empty."""
    store = services.adapters.store
    store.money.verify_invariants()
    record = store.tournaments.get(TID)
    assert record.ended_at is not None
    assert all(t.closed for t in store.tables.list(TID))
    assert store.ledger.balance(pool_account(TID)) == 0


def buy_rebuys_and_add_ons(services: Services, clock: FrozenClock, names: list[str]) -> None:
    """Everyone rebuys in the first level and buys the add-on in the add-on level (level 3, minutes 20-30)."""
    for name in names:
        services.play.rebuy(TID, name)
    at_minute(services, clock, 25)
    for name in names:
        services.play.add_on(TID, name)


# -- fees of rebuys and add-ons in the shard compensation refunds them from ------------------------------


def test_rule_17_rollback_of_a_rebuy_tournament_with_sharded_house_revenue_gives_back_every_fee() -> None:
    # Given a rebuy tournament (default max_players: house revenue sharded) where everyone rebought and added on
    services, clock, names = rebuy_tournament(12)
    buy_rebuys_and_add_ons(services, clock, names)
    assert all(
        e.contribution.rebuys == 1 and e.contribution.addons == 1 for e in services.adapters.store.entrants.list(TID)
    )
    # When it is terminated 25 minutes after the start and cannot restart
    terminate(services, clock)
    steps = compensate_until_done(services)
    # Then it is rolled back: every player has every cent back, the house keeps no fee, the pool is empty
    assert steps[-1].outcome == "rollback"
    assert_compensated(services)
    assert all(services.accounts.account(name).balance == DEPOSIT for name in names)
    assert house_balances(services) == {}
    assert services.adapters.store.ledger.balance(overlay_account(TID)) == 0


def test_rule_17_rebuy_and_add_on_fees_go_to_the_buyers_house_shard() -> None:
    # Given a rebuy tournament with sharded house revenue
    services, clock, names = rebuy_tournament(3)
    # When a player rebuys and adds on
    buy_rebuys_and_add_ons(services, clock, names[:1])
    # Then no fee went to the unsharded house account: each went to the buyer's shard, as the buy-in's fee did
    money = services.adapters.store.money
    fee_accounts = {
        str(leg.account)
        for e in money.entries(tournament_id=TID)
        if e.key.startswith(("rebuy:", "add_on:"))
        for leg in e.legs
        if leg.account.kind is AccountKind.HOUSE
    }
    register_fee = {
        str(leg.account)
        for e in money.entries(account=player_account(names[0]))
        if e.key.startswith("register:")
        for leg in e.legs
        if leg.account.kind is AccountKind.HOUSE
    }
    assert fee_accounts == register_fee and all("#" in a for a in fee_accounts)


@pytest.mark.parametrize("entry_fee", [100, 0])
def test_rule_17_refund_share_of_a_rebuy_tournament_with_sharded_house_revenue(entry_fee: int) -> None:
    # Given a rebuy tournament (rebuys in levels 1-6) with a guarantee far above what it collects, played 35 minutes
    services, clock, _ = rebuy_tournament(20, rebuy_levels=(1, 6), guarantee=10_000_000, entry_fee=entry_fee)
    driver = play_until(services, clock, 35)
    assert driver.rebuys > 0
    # When it is terminated then and cannot restart
    terminate(services, clock)
    steps = compensate_until_done(services)
    # Then the remaining players get their fees and contributions back plus a share: money conserved, pool empty
    assert steps[-1].outcome == "refund_share"
    assert_compensated(services)
    entrants = services.adapters.store.entrants.list(TID)
    remaining = {
        sp.player for t in services.adapters.store.tables.list(TID) for sp in t.table.seats.values() if sp.stack
    }
    prizes = sum(e.placing.prize for e in entrants if e.placing)
    eliminated_pool = sum(e.contribution.pool_paid for e in entrants if e.player_id not in remaining)
    # the house pays only what prizes took beyond the eliminated players' contributions; no fee of a remaining
    # player stays with the house
    assert services.adapters.store.ledger.balance(overlay_account(TID)) == -max(0, prizes - eliminated_pool)
    kept_fees = sum(e.contribution.house_paid for e in entrants if e.player_id not in remaining)
    assert sum(house_balances(services).values()) == kept_fees


def test_rule_17_payout_after_the_rebuy_periods_pays_the_guarantee_exactly_once() -> None:
    # Given a rebuy tournament with a guarantee above what it collects, played past its add-on level (prizes fixed)
    guarantee = 1_000_000
    services, clock, _ = rebuy_tournament(18, guarantee=guarantee)
    play_until(services, clock, 45)
    # When it is terminated then and cannot restart
    terminate(services, clock)
    steps = compensate_until_done(services)
    # Then the whole guaranteed pool is paid out; the house's overlay is exactly the guarantee's shortfall
    assert steps[-1].outcome == "payout"
    assert_compensated(services)
    assert services.adapters.store.ledger.balance(overlay_account(TID)) == -(guarantee - collected(services))


# -- a plan posted in idempotent chunks ------------------------------------------------------------------

SCENARIOS: dict[str, Callable[[], tuple[Services, FrozenClock, list[str]]]] = {}


def _rollback() -> tuple[Services, FrozenClock, list[str]]:
    services, clock, names = rebuy_tournament(45)
    buy_rebuys_and_add_ons(services, clock, names)
    return services, clock, names


def _payout() -> tuple[Services, FrozenClock, list[str]]:
    services, clock, names = rebuy_tournament(45, guarantee=500_000)
    buy_rebuys_and_add_ons(services, clock, names[::2])
    at_minute(services, clock, 40)
    return services, clock, names


def _refund_share() -> tuple[Services, FrozenClock, list[str]]:
    services, clock, names = rebuy_tournament(45, rebuy_levels=(1, 6), guarantee=10_000_000)
    for name in names[::3]:
        services.play.rebuy(TID, name)
    at_minute(services, clock, 40)
    return services, clock, names


SCENARIOS.update(rollback=_rollback, payout=_payout, refund_share=_refund_share)


@pytest.fixture(scope="module")
def clean_runs() -> dict[str, tuple[str, tuple[dict[str, Any], dict[str, int]]]]:
    """Each scenario compensated once without a fault, one chunk per step: its outcome and ledger."""
    runs = {}
    for name, scenario in SCENARIOS.items():
        services, clock, _ = scenario()
        terminate(services, clock)
        steps = compensate_until_done(services, units=1)
        assert len(steps) > 3 and all(s.more for s in steps[:-1])
        assert_compensated(services)
        runs[name] = (steps[-1].outcome, ledger_of(services))
    return runs


def terminated_at_each_commit(scenario: str) -> Iterator[tuple[int, Services]]:
    """For each commit of a compensation from the first, a fresh run of ``scenario`` just terminated; the test
    stops at the first commit a whole compensation never reaches."""
    for commit in range(1, 40):
        services, clock, _ = SCENARIOS[scenario]()
        terminate(services, clock)
        yield commit, services
    raise AssertionError("more commits than the test tries")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rule_17_compensation_crashing_after_any_commit_then_retried_pays_exactly_what_a_clean_run_pays(
    scenario: str, clean_runs: dict[str, tuple[str, tuple[dict[str, Any], dict[str, int]]]]
) -> None:
    outcome, clean = clean_runs[scenario]
    for crash_at, services in terminated_at_each_commit(scenario):
        # Given a terminated tournament whose compensation dies at its crash_at-th commit
        store = services.adapters.store
        commits = 0

        def die(n: int = crash_at) -> None:
            nonlocal commits
            commits += 1
            if commits == n:
                raise Crash(f"commit {n}")

        store.before_commit = die
        try:
            compensate_until_done(services, units=1)
        except Crash:
            crashed = True
        else:
            crashed = False
        finally:
            store.before_commit = None
        # When the workflow retries the step until it is done
        steps = compensate_until_done(services, units=1)
        # Then the ledger is the one of a clean run: nobody paid twice, nothing left in the pool
        assert_compensated(services)
        assert ledger_of(services) == clean, f"crash at commit {crash_at}"
        assert steps[-1].outcome in (outcome, "nothing")
        if not crashed:
            break  # every commit of a whole run has been a crash point


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_rule_17_a_second_compensation_racing_at_any_commit_changes_nothing(
    scenario: str, clean_runs: dict[str, tuple[str, tuple[dict[str, Any], dict[str, int]]]]
) -> None:
    _, clean = clean_runs[scenario]
    for race_at, services in terminated_at_each_commit(scenario):
        # Given a compensation in progress, and a second one (a re-driven workflow) running a whole step at one commit
        store = services.adapters.store
        commits = 0
        raced = False

        def other_worker(n: int = race_at, store: MemoryStore = store, services: Services = services) -> None:
            nonlocal commits, raced
            commits += 1
            if commits == n and not raced:
                raced = True
                store.before_commit = None
                try:
                    services.recovery.compensate(TID, units=1)
                finally:
                    store.before_commit = other_worker

        store.before_commit = other_worker
        # When both carry on (a lost race is retried, as the workflow's Retry would) until done
        for _ in range(200):
            try:
                if not getattr(compensate_until_done(services, units=1)[-1], "more", False):
                    break
            except StaleVersion:
                continue  # the workflow's Retry runs a step that lost a race again
        store.before_commit = None
        compensate_until_done(services, units=1)
        # Then the ledger is the one of a clean run
        assert_compensated(services)
        assert ledger_of(services) == clean, f"race at commit {race_at}"
        if not raced:
            break


def test_rule_17_two_workers_compensating_at_once_and_again_pay_once(
    clean_runs: dict[str, tuple[str, tuple[dict[str, Any], dict[str, int]]]],
) -> None:
    _, clean = clean_runs["rollback"]
    # Given a terminated tournament whose recovery workflow was started twice
    services, clock, _ = _rollback()
    terminate(services, clock)
    errors: list[BaseException] = []

    def worker() -> None:
        for _ in range(500):
            try:
                if not getattr(services.recovery.compensate(TID, units=1), "more", False):
                    return
            except StaleVersion:
                continue  # retried, as the workflow's Retry would
            except Exception as failed:
                errors.append(failed)
                return
        errors.append(AssertionError("did not finish"))

    # When both run their steps at the same time, and a third runs after they are done
    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    again = services.recovery.compensate(TID, units=1)
    # Then everybody was paid once: the ledger is the one of a clean run, and the last call finds nothing to do
    assert again.outcome == "nothing"
    assert_compensated(services)
    assert ledger_of(services) == clean


def test_rule_17_a_large_field_is_compensated_over_several_steps() -> None:
    # Given a rebuy tournament of 300 players, 34 tables, terminated in its first 30 minutes
    services, clock, names = rebuy_tournament(300)
    for name in names[::2]:
        services.play.rebuy(TID, name)
    terminate(services, clock)
    # When the workflow calls the compensation step until it says it is done
    steps = compensate_until_done(services, units=5)
    # Then it took several steps, each reporting what is left, and everyone was paid once
    assert len(steps) >= 4
    assert all(s.more for s in steps[:-1]) and not steps[-1].more
    left = [s.remaining for s in steps]
    assert left == sorted(left, reverse=True) and left[-1] == 0
    assert {s.outcome for s in steps} == {"rollback"}
    assert_compensated(services)
    assert all(services.accounts.account(name).balance == DEPOSIT for name in names)
    assert house_balances(services) == {}
    # and no answer carries more than one step's payments (the workflow's state stays small)
    assert max(len(s.paid) for s in steps) <= 5 * 20


def test_rule_17_a_plan_frozen_at_its_first_step_is_paid_as_frozen() -> None:
    # Given a payout (shared by chips) frozen and partly posted, and what it pays each player as frozen
    services, clock, _ = _payout()
    terminate(services, clock)
    assert services.recovery.compensate(TID, units=1).more
    store = services.adapters.store
    everything = services.recovery.compensate(TID, units=1)  # the same step again changes nothing it paid
    frozen = store.coordinators.get(TID).state.compensation
    assert frozen is not None and frozen.batches >= 1
    planned = {
        m.player: m.from_house + m.from_pool
        for index in range(frozen.batches)
        for m in store.compensation.batch(TID, index).movements
        if m.player
    }
    # When a stack changes afterwards (nothing may move at a terminated tournament: a defect elsewhere)
    record = store.tables.list(TID)[0]
    lucky = next(iter(record.table.players.values()))
    record.table.add_chips(lucky, 500)
    uow = store.unit_of_work()
    uow.save(record)
    uow.commit()
    # Then the rest is paid from the frozen batches: each player gets what the frozen plan says, to the cent
    compensate_until_done(services)
    assert everything.more
    paid = {
        e.key.rsplit(":", 1)[1]: sum(
            leg.amount for leg in e.legs if str(leg.account) == f"player:{e.key.rsplit(':', 1)[1]}"
        )
        for e in store.money.entries()
        if e.kind is EntryKind.COMPENSATION
    }
    assert paid == planned and lucky in planned
    store.money.verify_invariants()


def test_rule_17_after_its_first_step_compensation_never_reads_the_field_again() -> None:
    # Given a payout whose plan the first step froze
    services, clock, _ = _payout()
    terminate(services, clock)
    assert services.recovery.compensate(TID, units=1).more
    # When every later step runs with the entrants' and registrations' listings out of reach
    store = services.adapters.store

    def unreachable(*_: object, **__: object) -> None:
        raise AssertionError("a step after the freeze read the whole field")

    store.entrants.list = unreachable  # type: ignore[method-assign]
    store.registrations.list = unreachable  # type: ignore[method-assign]
    steps = compensate_until_done(services, units=1)
    # Then the compensation is paid in full all the same, each step from its own batch
    assert steps[-1].outcome == "payout" and not steps[-1].more
    assert_compensated(services)


def test_rule_17_a_chunk_that_loses_a_race_on_the_pool_is_posted_again_within_its_step() -> None:
    # Given a payout whose plan the first step froze
    services, clock, _ = _payout()
    terminate(services, clock)
    assert services.recovery.compensate(TID, units=1).more
    # When the next chunk's transaction loses a race once (another transaction held the pool's balance)
    store = services.adapters.store
    make = store.unit_of_work
    lost = []

    def unit_of_work() -> Any:
        uow = make()
        commit = uow.commit

        def losing_once() -> None:
            if not lost and uow._entries:  # the chunk's transaction, not the step's other writes
                lost.append(True)
                raise StaleVersion("a transaction holds the pool's balance")
            commit()

        uow.commit = losing_once
        return uow

    store.unit_of_work = unit_of_work  # type: ignore[method-assign]
    step = services.recovery.compensate(TID, units=1)
    store.unit_of_work = make  # type: ignore[method-assign]
    # Then the step posted its chunk all the same, and the compensation ends paid in full
    assert lost and step.paid
    compensate_until_done(services)
    assert_compensated(services)
