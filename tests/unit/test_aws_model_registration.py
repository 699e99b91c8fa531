"""Registrations at 1,000 a second through the AWS model (``simulation/aws``): each one's transaction meets few
others on the items it shares with them (a counter shard, a house shard, a shard of the pool), so an API environment
is held for its calls, not for retries after lost races (``docs/performance.md``, "Capacity in the modeled cloud")."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import pytest
from tourney.adapters.dynamo.models import tournaments as tn
from tourney.adapters.memory import FrozenClock, MemoryStore
from tourney.bootstrap import Services
from tourney.domain.errors import StaleVersion
from tourney.services.admin import MAX_SHARDS
from tourney.services.commands import CreateTournament
from tourney.services.deps import Deps
from tourney.services.records import CounterShard
from tourney.services.register import open_shard_for
from tourney.services.start import seal_registration
from tourney.simulation.aws.latency import DEFAULT_LATENCIES
from tourney.simulation.aws.model import AwsModel, Failure, Invocation
from tourney.simulation.aws.records import StoredItem
from tourney.simulation.aws.requests import Request
from tourney.simulation.aws.store import MeteredStore

from tests.support.composition import services_over

ARRIVALS_PER_SECOND = 1_000


class _Running:
    def __init__(self) -> None:
        self.run: Invocation | None = None

    def __call__(self) -> Invocation | None:
        return self.run


def _open(max_players: int, running: _Running) -> tuple[Services, MeteredStore]:
    clock = FrozenClock()
    store = MeteredStore(MemoryStore(), running)
    services = services_over(store, clock, seed=1)
    command = CreateTournament(
        name="busy", format="freezeout", buy_in=1_000, entry_fee=100, start_at=clock.now() + timedelta(hours=1),
        tournament_id="t1", max_players=max_players,
    )  # fmt: skip
    services.admin.create_tournament(command)
    return services, store


def _register_at_a_thousand_a_second(players: int, max_players: int) -> tuple[list[Invocation], int]:
    """``players`` register, one every millisecond, each in an invocation of the API function (warm: the cold
    starts are another matter); their invocations and how many failed (a lost race, a throttled read)."""
    model, running = AwsModel(latencies=DEFAULT_LATENCIES.with_overrides(cold_start=0.0)), _Running()
    services, _ = _open(max_players, running)
    for i in range(players):
        services.accounts.deposit(f"p{i}", 5_000, key=f"fund-{i}")
    runs, lost = [], 0
    for i in range(players):
        run = model.invocation("api", at=i / ARRIVALS_PER_SECOND)
        assert run is not None
        running.run = run
        try:
            services.registration.register("t1", f"p{i}", key=f"t1:p{i}")
        except (StaleVersion, Failure):  # a race lost through every retry, or a read throttled through the SDK's
            lost += 1
        finally:
            running.run = None
            model.finish(run)
        runs.append(run)
    return runs, lost


def test_a_thousand_registrations_a_second_each_hold_an_environment_for_its_calls_not_for_lost_races() -> None:
    # Given a freezeout of 10,000 seats open for registration and 2,000 funded players

    # When they register at 1,000 a second, each through its own invocation of the API function
    runs, lost = _register_at_a_thousand_a_second(2_000, max_players=10_000)

    # Then none fails (a lost race, a read throttled on the tournament item), few transactions are sent again,
    # and a registration takes about its calls (3 GetItems and a TransactWriteItems: 35 ms), not the adapter's
    # and the service's retries
    transactions = sum(run.watch.calls[Request.TRANSACT_WRITE_ITEMS] for run in runs)
    durations = sorted(run.watch.elapsed for run in runs)
    assert lost == 0
    assert transactions / len(runs) < 2
    assert sum(durations) / len(durations) < 0.1
    assert durations[int(0.99 * len(durations))] < 0.3


def test_with_every_shard_full_the_wait_listing_and_the_seal_still_fit_one_transaction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given a freezeout with the most counter shards, every one of them full, and a funded player
    running = _Running()
    services, store = _open(100 * MAX_SHARDS, running)
    shards = store.inner.registrations.shards("t1")
    assert len(shards) == MAX_SHARDS
    unit = store.inner.unit_of_work()
    for shard in shards:
        unit.bump(shard, shard.cap)
    unit.commit()
    services.accounts.deposit("late", 5_000, key="fund-late")
    sizes: list[int] = []
    transact = Invocation.transact

    def counted(self: Invocation, items: Iterable[StoredItem], checks: Iterable[StoredItem] = ()) -> Any:
        items, checks = list(items), list(checks)
        sizes.append(len(items) + len(checks))
        return transact(self, items, checks)

    monkeypatch.setattr(Invocation, "transact", counted)
    model = AwsModel()

    # When the player registers (onto the waiting list: it checks every shard), then the start seals every shard
    running.run = model.invocation("api", at=0.0)
    view = services.registration.register("t1", "late", key="t1:late")
    running.run = model.invocation("start_tasks", at=1.0)
    seal_registration(Deps(store=store), "t1")

    # Then each is one TransactWriteItems within DynamoDB's 100 items
    assert view.status == "waitlisted"
    assert len(sizes) == 2
    assert all(size <= 100 for size in sizes), sizes


def test_the_players_of_full_shards_spread_over_the_open_ones_rather_than_all_onto_the_next() -> None:
    # Given 90 counter shards, the first 60 full
    shards = [CounterShard("t1", n, cap=100, count=100 if n < 60 else 0) for n in range(90)]

    # When the players whose own shard is full each take a place
    players = [f"p{i}" for i in range(3_000)]
    chosen = [open_shard_for(shards, player) for player in players]

    # Then each takes an open shard, its own when open, and no open shard takes more than twice its share of the
    # others (at 1,000 a second, one taking them all would be as hot as before the shards were many)
    assert all(shard is not None and not shard.full for shard in chosen)
    overflow = [shard.shard for shard, player in zip(chosen, players, strict=True) if shards[_own(player)].full]
    share = len(overflow) / 30
    assert max(overflow.count(n) for n in range(60, 90)) < 2 * share
    assert all(shard == shards[_own(p)] for shard, p in zip(chosen, players, strict=True) if not shards[_own(p)].full)


def _own(player: str) -> int:
    return zlib.crc32(player.encode()) % 90


def test_a_registrant_whose_shard_is_full_reads_the_tournament_item_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a freezeout of three counter shards, one of them full, and a funded player whose own shard it is
    running = _Running()
    services, store = _open(300, running)
    full = store.inner.registrations.shard("t1", 0)
    assert full is not None
    unit = store.inner.unit_of_work()
    unit.bump(full, full.cap)
    unit.commit()
    player = next(p for p in (f"p{i}" for i in range(100)) if zlib.crc32(p.encode()) % 3 == 0)
    services.accounts.deposit(player, 5_000, key="fund")
    tournament_reads: list[StoredItem] = []
    get = Invocation.get

    def counted(self: Invocation, item: StoredItem, *args: Any) -> Any:
        if item.partition_key == tn.tournament_pk("t1") and item.sort_key == tn.TOURNAMENT_SK:
            tournament_reads.append(item)
        return get(self, item, *args)

    monkeypatch.setattr(Invocation, "get", counted)

    # When the player registers (their shard full: every shard is read, to take an open one)
    running.run = AwsModel().invocation("api", at=0.0)
    view = services.registration.register("t1", player, key=f"t1:{player}")

    # Then the tournament item is read once, by the service, not again to count the shards: in a large field's
    # last seconds every registrant's shard is full, and the item takes each of their reads
    assert view.status == "registered"
    assert len(tournament_reads) == 1
