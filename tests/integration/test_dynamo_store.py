# ruff: noqa: F811  (pytest fixtures imported from tests.support.aws)
"""Records on DynamoDB (moto): round trips, versions, counter shards, and what one table action costs."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import boto3
import pytest
from tourney.adapters.dynamo.models.tables import table_pk, table_sk
from tourney.adapters.dynamo.schema import TABLES
from tourney.adapters.dynamo.store import DynamoStore
from tourney.domain.balancing import Balancing
from tourney.domain.errors import InsufficientFunds, NotFound, StaleVersion
from tourney.domain.hand import ActionKind
from tourney.domain.ledger import deposit, player_account
from tourney.domain.registration import TournamentStatus
from tourney.domain.seating import TableSeating
from tourney.domain.structure import TournamentConfig, TournamentFormat
from tourney.domain.table import Table
from tourney.domain.tournament import Contribution, TournamentState
from tourney.services.records import (
    CoordinatorRecord,
    CounterShard,
    EntrantRecord,
    HandRecord,
    RegistrationRecord,
    RegistrationState,
    SeatingPlan,
    TableRecord,
    TournamentRecord,
    WaitingList,
)

from tests.support.aws import (  # noqa: F401
    REGION,
    AwsCallRecorder,
    aws,
    dynamodb,
    item_size,
    raw_item,
    recorder,
    serial_aws,
)

pytestmark = pytest.mark.usefixtures("dynamodb")

T0 = datetime(2026, 3, 1, 18, tzinfo=UTC)
CONFIG = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=20)


def tournament(tid: str = "t1", **changes: object) -> TournamentRecord:
    record = TournamentRecord(
        tid,
        "Sunday 10k",
        CONFIG,
        TournamentStatus.REGISTERING,
        announce_at=T0,
        start_at=T0 + timedelta(hours=2),
        created_at=T0,
        created_by="op",
        registration_shards=4,
    )
    return replace(record, **changes)  # type: ignore[arg-type]


def table_mid_hand(seats: int = 10, actions: int = 6) -> Table:
    rng = random.Random(5)
    table = Table(7, seats)
    for seat in range(1, seats + 1):
        table.seat_player(f"player-{seat:06d}", seat, 10_000)
    table.draw_button(rng=rng)
    deck = list(range(52))
    rng.shuffle(deck)
    table.start_hand(CONFIG.level(4), deck)
    for _ in range(actions):
        awaiting = table.awaiting()
        assert awaiting is not None
        table.act(awaiting.player, ActionKind.CALL, hand=awaiting.hand, seq=awaiting.seq)
    return table


def save(store: DynamoStore, *records: object) -> None:
    uow = store.unit_of_work()
    for record in records:
        uow.save(record)  # type: ignore[arg-type]
    uow.commit()


# -- round trips ------------------------------------------------------------------------------------------------------


def test_every_record_reads_back_as_saved_with_its_version_one_more() -> None:
    # Given one record of every kind
    store = DynamoStore()
    state = TournamentState("t1", CONFIG, Balancing(9, [("1", 9), ("2", 8)]), entrants=17, remaining=17)
    table = table_mid_hand()
    records = [
        tournament(),
        RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, T0, shard=2, key="k-1"),
        CounterShard("t1", 0, cap=5, count=0),
        WaitingList("t1", ("zed", "yan")),
        SeatingPlan("t1", 0, (TableSeating(1, ((1, "ann"), (2, "bob"))), TableSeating(2, ((1, "cy"),)))),
        CoordinatorRecord("t1", state),
        EntrantRecord("t1", "ann", Contribution("ann", 1_000, 100, pool_paid=1_000, house_paid=100), "1"),
        TableRecord("t1", "7", table, level=4, dealt_at=T0, updated_at=T0, pending_chips=(("ann", 500),)),
        HandRecord("t1", "7", 3, {"any": ["plain", 1]}, {1: "ann", 2: "bob"}, 9, 4, T0, T0 + timedelta(minutes=1)),
    ]
    # When they are saved in one unit of work
    save(store, *records)
    # Then each reads back equal, at version 1
    assert store.tournaments.get("t1") == replace(records[0], version=1)
    assert store.registrations.get("t1", "ann") == replace(records[1], version=1)
    assert store.registrations.shards("t1") == [replace(records[2], version=1)]
    assert store.registrations.waiting_list("t1") == replace(records[3], version=1)
    assert store.registrations.plan("t1", 0) == replace(records[4], version=1)
    coordinator = store.coordinators.get("t1")
    assert coordinator is not None and coordinator.version == 1
    assert coordinator.state.to_dict() == state.to_dict()
    assert store.entrants.get("t1", "ann") == replace(records[6], version=1)
    stored_table = store.tables.get("t1", "7")
    assert stored_table.table.to_dict() == table.to_dict()
    assert replace(stored_table, table=table) == replace(records[7], version=1)
    assert store.hands.get("t1", "7", 3) == replace(records[8], version=1)


def test_missing_records_are_not_found_or_none() -> None:
    store = DynamoStore()
    with pytest.raises(NotFound):
        store.tournaments.get("nope")
    with pytest.raises(NotFound):
        store.tables.get("t1", "1")
    with pytest.raises(NotFound):
        store.hands.get("t1", "1", 1)
    with pytest.raises(NotFound):
        store.registrations.plan("t1", 0)
    assert store.registrations.get("t1", "ann") is None
    assert store.coordinators.get("t1") is None
    assert store.entrants.get("t1", "ann") is None
    assert store.registrations.waiting_list("t1") == WaitingList("t1")


def test_lobby_lists_tournaments_by_start_time_sit_and_gos_last() -> None:
    # Given three tournaments in different states, one a Sit&Go
    store = DynamoStore()
    sng = TournamentConfig.for_format(TournamentFormat.SNG, buy_in=500, entry_fee=50)
    save(
        store,
        tournament("late", start_at=T0 + timedelta(hours=5)),
        tournament("early", start_at=T0 + timedelta(hours=1), status=TournamentStatus.RUNNING),
        tournament("sng", config=sng, start_at=None),
    )
    # When the lobby lists them
    listed = [t.tournament_id for t in store.tournaments.list()]
    # Then by start time, the Sit&Go last
    assert listed == ["early", "late", "sng"]


def test_registrations_and_entrants_list_across_buckets_by_player() -> None:
    # Given 30 registrations, some wait-listed
    store = DynamoStore()
    players = [f"p{i:02d}" for i in range(30)]
    uow = store.unit_of_work()
    for i, player in enumerate(players):
        state = RegistrationState.WAITLISTED if i % 10 == 0 else RegistrationState.REGISTERED
        uow.save(RegistrationRecord("t1", player, state, 1, T0))
    uow.commit()
    # Then they list in player order, and by state
    assert [r.player_id for r in store.registrations.list("t1")] == players
    assert [r.player_id for r in store.registrations.list("t1", RegistrationState.WAITLISTED)] == ["p00", "p10", "p20"]


# -- versions ---------------------------------------------------------------------------------------------------------


def test_saving_a_new_record_twice_is_a_stale_version() -> None:
    # Given a tournament saved once
    store = DynamoStore()
    save(store, tournament())
    # When another writer saves a new one under the same id
    with pytest.raises(StaleVersion):
        save(store, tournament(name="other"))
    # Then the first stays
    assert store.tournaments.get("t1").name == "Sunday 10k"


def test_two_writers_of_one_table_exactly_one_wins() -> None:
    # Given a table read by two writers at the same version
    store = DynamoStore()
    save(store, TableRecord("t1", "1", table_mid_hand(actions=0), dealt_at=T0))
    first, second = store.tables.get("t1", "1"), store.tables.get("t1", "1")
    # When both write back
    save(store, replace(first, level=2))
    with pytest.raises(StaleVersion):
        save(store, replace(second, level=3))
    # Then the first write is stored, at version 2
    stored = store.tables.get("t1", "1")
    assert (stored.level, stored.version) == (2, 2)


def test_concurrent_actions_at_one_table_exactly_one_wins(serial_aws: None) -> None:
    # Given a table mid-hand and 6 threads that each read it and write back an action
    store = DynamoStore()
    save(store, TableRecord("t1", "1", table_mid_hand(actions=0), dealt_at=T0))
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def act() -> None:
        record = store.tables.get("t1", "1")
        awaiting = record.table.awaiting()
        assert awaiting is not None
        record.table.act(awaiting.player, ActionKind.CALL, hand=awaiting.hand, seq=awaiting.seq)
        barrier.wait()
        try:
            save(store, record)
            outcomes.append("won")
        except StaleVersion:
            outcomes.append("stale")

    threads = [threading.Thread(target=act) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then exactly one action was stored
    assert sorted(outcomes) == ["stale"] * 5 + ["won"]
    assert store.tables.get("t1", "1").version == 2


def test_a_failed_version_moves_no_money() -> None:
    # Given ann with 1,100 cents and a registration record already stored
    store = DynamoStore()
    store.ledger.post(deposit("dep", "ann", 1_100, T0))
    save(store, RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, T0))
    # When a unit of work pays and saves the registration as new
    uow = store.unit_of_work()
    uow.post(store_entries("ann"))
    uow.save(RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, T0))
    with pytest.raises(StaleVersion):
        uow.commit()
    # Then nothing was paid
    assert store.ledger.balance(player_account("ann")) == 1_100


def test_a_short_wallet_writes_no_record() -> None:
    store = DynamoStore()
    uow = store.unit_of_work()
    uow.post(store_entries("ann"))
    uow.save(RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, T0))
    with pytest.raises(InsufficientFunds):
        uow.commit()
    assert store.registrations.get("t1", "ann") is None


def test_check_fails_when_the_record_changed_meanwhile() -> None:
    # Given a waiting list read at version 1, then changed by someone else
    store = DynamoStore()
    save(store, WaitingList("t1"))
    read = store.registrations.waiting_list("t1")
    save(store, replace(read, players=("zed",)))
    # When a unit of work checks the old version
    uow = store.unit_of_work()
    uow.check(read)
    uow.save(RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, T0))
    # Then it fails and writes nothing
    with pytest.raises(StaleVersion):
        uow.commit()
    assert store.registrations.get("t1", "ann") is None


def test_a_unit_of_work_commits_once_and_touches_an_item_once() -> None:
    store = DynamoStore()
    uow = store.unit_of_work()
    uow.commit()
    with pytest.raises(RuntimeError):
        uow.commit()
    twice = store.unit_of_work()
    twice.save(tournament())
    twice.check(tournament())
    with pytest.raises(ValueError):
        twice.commit()


# -- counter shards ---------------------------------------------------------------------------------------------------


def test_bump_never_goes_below_zero() -> None:
    # Given a full shard, 2 of 2 (bumps within the cap and never beyond: the store contract, run on DynamoDB too)
    store = DynamoStore()
    save(store, tournament(registration_shards=1), CounterShard("t1", 0, cap=2, count=2))
    shard = store.registrations.shards("t1")[0]
    # When it goes down by 2, then by 1 more, each from the same stale read: the second fails
    for delta, allowed in ((-2, True), (-1, False)):
        uow = store.unit_of_work()
        uow.bump(shard, delta)
        if allowed:
            uow.commit()
        else:
            with pytest.raises(StaleVersion):
                uow.commit()
    assert store.registrations.shards("t1")[0].count == 0


def test_a_sealed_shard_takes_no_bump() -> None:
    store = DynamoStore()
    save(store, tournament(registration_shards=1), CounterShard("t1", 0, cap=5, sealed=True))
    uow = store.unit_of_work()
    uow.bump(store.registrations.shards("t1")[0], 1)
    with pytest.raises(StaleVersion):
        uow.commit()


def test_concurrent_bumps_fill_a_shard_exactly_to_its_cap(serial_aws: None) -> None:
    # Given a shard with room for 5 and 12 threads bumping it from one read
    store = DynamoStore()
    save(store, tournament(registration_shards=1), CounterShard("t1", 0, cap=5))
    shard = store.registrations.shards("t1")[0]
    won: list[bool] = []

    def bump() -> None:
        uow = store.unit_of_work()
        uow.bump(shard, 1)
        try:
            uow.commit()
            won.append(True)
        except StaleVersion:
            won.append(False)

    threads = [threading.Thread(target=bump) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then exactly 5 got in
    assert won.count(True) == 5
    assert store.registrations.shards("t1")[0].count == 5


# -- what it costs ----------------------------------------------------------------------------------------------------


def test_a_table_load_and_save_is_one_consistent_get_and_one_conditional_write(recorder: AwsCallRecorder) -> None:
    # Given a table mid-hand
    store = DynamoStore()
    save(store, TableRecord("t1", "3", table_mid_hand(actions=2), dealt_at=T0))
    recorder.clear()
    # When a player's action is applied: load, act, save
    record = store.tables.get("t1", "3")
    awaiting = record.table.awaiting()
    assert awaiting is not None
    record.table.act(awaiting.player, ActionKind.CALL, hand=awaiting.hand, seq=awaiting.seq)
    save(store, replace(record, updated_at=T0 + timedelta(seconds=5)))
    # Then DynamoDB saw one strongly consistent GetItem and one conditional PutItem (not a transaction,
    # which would cost twice as much), nothing else
    calls = recorder.of("dynamodb")
    assert [c.operation for c in calls] == ["GetItem", "PutItem"]
    assert calls[0].consistent
    assert calls[1].conditional and calls[1].items_written == 1


def test_tables_and_entrants_read_together_are_one_consistent_batch_each(recorder: AwsCallRecorder) -> None:
    # Given three tables and two entrants stored
    store = DynamoStore()
    tables = [TableRecord("t1", t, table_mid_hand(actions=2), dealt_at=T0) for t in ("1", "2", "12")]
    entrants = [
        EntrantRecord("t1", p, Contribution(p, 1_000, 100, pool_paid=1_000, house_paid=100), "1")
        for p in ("ann", "bob")
    ]
    save(store, *tables, *entrants)
    recorder.clear()
    # When the tables 1, 12 and 99 (none) are read together, then the entrants ann, bob and cy (none)
    found_tables = store.tables.get_many("t1", ["1", "12", "99"])
    found_entrants = store.entrants.get_many("t1", ["ann", "bob", "cy"])
    # Then what exists is found, by id, as saved; what does not is left out
    assert sorted(found_tables) == ["1", "12"]
    assert found_tables["12"].table.to_dict() == tables[2].table.to_dict() and found_tables["12"].version == 1
    assert found_entrants == {p: replace(e, version=1) for p, e in zip(("ann", "bob"), entrants, strict=True)}
    # And DynamoDB saw one strongly consistent BatchGetItem for each, nothing else
    calls = recorder.of("dynamodb")
    assert [c.operation for c in calls] == ["BatchGetItem", "BatchGetItem"]
    assert all(c.consistent for c in calls)


def test_a_ten_seat_table_mid_hand_is_far_below_the_item_limit() -> None:
    # Given a 10-seat table with a hand in progress, stored
    store = DynamoStore()
    save(store, TableRecord("t1", "3", table_mid_hand(seats=10, actions=9), dealt_at=T0, updated_at=T0))
    # When its stored item is read raw
    raw = raw_item(TABLES.name(), table_pk("t1", "3"), table_sk("3"))
    # Then it holds a compressed body: the item fits one write request unit (1 KB), 400 times below the limit
    assert raw is not None
    assert item_size(raw) <= 1_024


def test_a_running_tables_item_holds_no_index_key_and_the_tables_table_no_index() -> None:
    # Given a running table, its hand dealt, stored
    store = DynamoStore()
    save(store, TableRecord("t1", "3", table_mid_hand(actions=0), dealt_at=T0, updated_at=T0))
    # When its stored item and its DynamoDB table are read
    raw = raw_item(TABLES.name(), table_pk("t1", "3"), table_sk("3"))
    described = boto3.client("dynamodb", region_name=REGION).describe_table(TableName=TABLES.name())["Table"]
    # Then the item holds its keys and the record's own attributes, nothing a deal would move in an index (the
    # watchdog lists the tables: docs/architecture.md, "The watchdog lists the tables"), and the table has no index
    assert raw is not None
    assert set(raw) == {
        "pk", "sk", "tournament_id", "table_id", "version", "body", "hand_number", "level", "closed", "dealt_at",
        "updated_at",
    }  # fmt: skip
    assert not described.get("GlobalSecondaryIndexes")


def store_entries(player: str):  # type: ignore[no-untyped-def]
    from tourney.domain.fees import Purchase, PurchasePayment

    return PurchasePayment(Purchase.BUY_IN, "t1", player, 1_000, 100).entries(f"register:t1:{player}:1", T0)
