"""Contract tests of the storage port (``tourney.services.ports.Store``), for every implementation.

Each function takes a factory of a fresh, empty store and asserts one
behaviour the services rely on. ``tests/unit/services/test_memory_contracts.py``
runs them against the memory adapter; the DynamoDB adapter's tests run the
same functions inside ``mock_aws``::

    @pytest.mark.parametrize("contract", ALL_CONTRACTS, ids=lambda c: c.__name__)
    def test_dynamo_store_keeps_the_contract(contract, dynamo_store_factory):
        contract(dynamo_store_factory)
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from tourney.domain.errors import IdempotencyConflict, InsufficientFunds, NotFound, StaleVersion
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import EntryKind, deposit, player_account, pool_account, transfer
from tourney.domain.registration import TournamentStatus
from tourney.domain.structure import TournamentConfig
from tourney.domain.table import Table
from tourney.domain.tournament import TournamentState, entry_contribution
from tourney.services.ports import Store
from tourney.services.records import (
    AccountRecord,
    AuditAct,
    AuditRecord,
    CoordinatorRecord,
    CounterShard,
    EntrantRecord,
    MuteRecord,
    RegistrationRecord,
    RegistrationState,
    TableRecord,
    TournamentRecord,
    WaitingList,
)

StoreFactory = Callable[[], Store]
AT = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
CONFIG = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=20)


def tournament(tid: str = "t1") -> TournamentRecord:
    return TournamentRecord(tid, "Test", CONFIG, TournamentStatus.REGISTERING, AT, AT.replace(hour=13), AT)


def table(tid: str = "t1", table_id: str = "1") -> TableRecord:
    t = Table(1, 6)
    t.seat_player("ann", 1, 10_000)
    t.seat_player("bob", 4, 10_000)
    return TableRecord(tid, table_id, t, updated_at=AT)


def save(store: Store, *records: object) -> None:
    uow = store.unit_of_work()
    for record in records:
        uow.save(record)  # type: ignore[arg-type]
    uow.commit()


def contract_a_saved_record_reads_back_with_its_version_raised(factory: StoreFactory) -> None:
    store = factory()
    save(store, tournament(), table())
    assert store.tournaments.get("t1").version == 1
    assert store.tournaments.get("t1").config == CONFIG
    read = store.tables.get("t1", "1")
    assert read.version == 1 and read.table.players == {1: "ann", 4: "bob"}
    with pytest.raises(NotFound):
        store.tables.get("t1", "2")
    with pytest.raises(NotFound):
        store.tournaments.get("nope")


def contract_a_stale_save_fails_and_writes_nothing_of_its_unit(factory: StoreFactory) -> None:
    store = factory()
    save(store, tournament(), table())
    first, second = store.tables.get("t1", "1"), store.tables.get("t1", "1")
    first.table.set_away("ann")
    save(store, first)
    second.table.set_away("bob")
    uow = store.unit_of_work()
    uow.save(second)
    uow.post([deposit("d1", "ann", 100, AT)])
    with pytest.raises(StaleVersion):
        uow.commit()
    stored = store.tables.get("t1", "1")
    assert stored.version == 2 and stored.table.seats[1].away and not stored.table.seats[4].away
    assert store.ledger.balance(player_account("ann")) == 0


def contract_a_new_record_must_not_exist(factory: StoreFactory) -> None:
    store = factory()
    save(store, tournament())
    with pytest.raises(StaleVersion):
        save(store, tournament())


def contract_check_is_a_condition_without_a_write(factory: StoreFactory) -> None:
    store = factory()
    save(store, tournament(), WaitingList("t1"))
    waiting = store.registrations.waiting_list("t1")
    uow = store.unit_of_work()
    uow.check(waiting)
    uow.save(table())
    uow.commit()
    assert store.registrations.waiting_list("t1").version == waiting.version
    save(store, WaitingList("t1", ("x",), version=waiting.version))
    uow = store.unit_of_work()
    uow.check(waiting)
    uow.save(table("t1", "2"))
    with pytest.raises(StaleVersion):
        uow.commit()
    with pytest.raises(NotFound):
        store.tables.get("t1", "2")


def contract_an_unsaved_waiting_list_reads_empty_at_version_zero(factory: StoreFactory) -> None:
    store = factory()
    assert store.registrations.waiting_list("t9") == WaitingList("t9")


def contract_counter_shards_add_within_their_cap_and_refuse_once_sealed(factory: StoreFactory) -> None:
    store = factory()
    save(store, CounterShard("t1", 0, cap=2), CounterShard("t1", 1, cap=1))
    shard = store.registrations.shards("t1")[0]
    for _ in range(2):
        uow = store.unit_of_work()
        uow.bump(shard, 1)
        uow.commit()
    uow = store.unit_of_work()
    uow.bump(shard, 1)
    with pytest.raises(StaleVersion):
        uow.commit()
    shards = store.registrations.shards("t1")
    assert [(s.shard, s.count) for s in shards] == [(0, 2), (1, 0)]
    assert shards[0].version > shard.version
    save(store, CounterShard("t1", 1, cap=1, sealed=True, version=shards[1].version))
    uow = store.unit_of_work()
    uow.bump(shards[1], 1)
    with pytest.raises(StaleVersion):
        uow.commit()
    uow = store.unit_of_work()
    uow.bump(store.registrations.shards("t1")[0], -3)
    with pytest.raises(StaleVersion):
        uow.commit()


def contract_ledger_posts_are_idempotent_by_key(factory: StoreFactory) -> None:
    store = factory()
    for _ in range(2):
        uow = store.unit_of_work()
        uow.post([deposit("d1", "ann", 500, AT)])
        uow.commit()
    assert store.ledger.balance(player_account("ann")) == 500
    assert [e.key for e in store.ledger.entries(player_account("ann"))] == ["d1"]
    assert store.ledger.entry("d1") is not None
    uow = store.unit_of_work()
    uow.post([deposit("d1", "ann", 600, AT)])
    with pytest.raises(IdempotencyConflict):
        uow.commit()


def contract_money_never_goes_below_zero_and_a_failed_unit_moves_nothing(factory: StoreFactory) -> None:
    store = factory()
    uow = store.unit_of_work()
    uow.post([deposit("d1", "ann", 500, AT)])
    uow.commit()
    move = transfer("buy", EntryKind.BUY_IN, "t1", player_account("ann"), pool_account("t1"), 800, AT)
    assert move is not None
    uow = store.unit_of_work()
    uow.post([move])
    uow.save(tournament())
    with pytest.raises(InsufficientFunds):
        uow.commit()
    assert store.ledger.balance(player_account("ann")) == 500
    assert store.ledger.balance(pool_account("t1")) == 0
    with pytest.raises(NotFound):
        store.tournaments.get("t1")


def contract_registrations_list_by_state(factory: StoreFactory) -> None:
    store = factory()
    save(
        store,
        RegistrationRecord("t1", "bob", RegistrationState.WAITLISTED, 1, AT),
        RegistrationRecord("t1", "ann", RegistrationState.REGISTERED, 1, AT, shard=0, key="k"),
        RegistrationRecord("t2", "cy", RegistrationState.REGISTERED, 1, AT),
    )
    assert [r.player_id for r in store.registrations.list("t1")] == ["ann", "bob"]
    assert [r.player_id for r in store.registrations.list("t1", RegistrationState.REGISTERED)] == ["ann"]
    assert store.registrations.get("t1", "ann") == RegistrationRecord(
        "t1", "ann", RegistrationState.REGISTERED, 1, AT, shard=0, key="k", version=1
    )
    assert store.registrations.get("t1", "zed") is None


def contract_coordinator_and_entrants_round_trip(factory: StoreFactory) -> None:
    store = factory()
    state = TournamentState.start("t1", CONFIG, {"1": 6, "2": 5})
    state.first_hand_dealt(AT)
    save(store, CoordinatorRecord("t1", state), EntrantRecord("t1", "ann", entry_contribution("ann", CONFIG), "1"))
    read = store.coordinators.get("t1")
    assert read is not None and read.state.to_dict() == state.to_dict() and read.version == 1
    assert store.coordinators.get("t2") is None
    entrant = store.entrants.get("t1", "ann")
    assert entrant is not None and entrant.contribution.pool_paid == 1_000 and entrant.table_id == "1"
    assert [e.player_id for e in store.entrants.list("t1")] == ["ann"]


def operator_act(audit_id: str, at: datetime, **fields: object) -> AuditRecord:
    """An act of olga's about ann (a mute, unless ``fields`` say otherwise), at ``at``."""
    record: dict[str, object] = {
        "audit_id": audit_id,
        "at": at,
        "operator": "olga",
        "act": AuditAct.MUTE,
        "reason": "why",
        "player_id": "ann",
        "before": None,
        "after": {"muted": True},
        **fields,
    }
    return AuditRecord(**record)  # type: ignore[arg-type]


def audit(audit_id: str, minute: int, tournament_id: str | None, player_id: str | None) -> AuditRecord:
    return AuditRecord(
        audit_id, AT.replace(minute=minute), "olga", AuditAct.MUTE, "why", tournament_id, player_id,
        before={"muted": False}, after={"muted": True, "until": None},
    )  # fmt: skip


def contract_audit_records_are_written_once_and_listed_by_tournament_and_player(factory: StoreFactory) -> None:
    # Given records about (t1, ann), (none, ann), (t1, none) and (t2, bob), written out of time order
    store = factory()
    records = [
        audit("c", 3, "t1", "ann"),
        audit("a", 1, None, "ann"),
        audit("b", 2, "t1", None),
        audit("d", 4, "t2", "bob"),
    ]
    for record in records:
        save(store, record)
    stored = {r.audit_id: AuditRecord(**{**r.__dict__, "version": 1}) for r in records}
    # Then each listing is oldest first, and a record reads back by its key
    assert list(store.audit.for_tournament("t1")) == [stored["b"], stored["c"]]
    assert list(store.audit.for_player("ann")) == [stored["a"], stored["c"]]
    assert store.audit.get("a", None, "ann") == stored["a"]
    assert store.audit.get("zz", "t1", None) is None
    # And ids are per partition: the same id about another player in no tournament is another record
    save(store, audit("a", 5, None, "bob"))
    assert store.audit.get("a", None, "ann") == stored["a"]
    assert store.audit.get("a", None, "bob") is not None
    # And a record is never written again, not even unchanged
    with pytest.raises(StaleVersion):
        save(store, audit("c", 9, "t1", "ann"))
    assert store.audit.get("c", "t1", "ann") == stored["c"]


def contract_a_mute_is_versioned(factory: StoreFactory) -> None:
    store = factory()
    assert store.mutes.get("ann") is None
    mute = MuteRecord("ann", True, AT, "olga", "abuse", until=AT.replace(hour=13))
    save(store, mute)
    stored = store.mutes.get("ann")
    assert stored == MuteRecord("ann", True, AT, "olga", "abuse", until=AT.replace(hour=13), version=1)
    with pytest.raises(StaleVersion):
        save(store, mute)  # version 0 again: another mute raced it
    save(store, MuteRecord("ann", False, AT, "olga", "sorry", version=1))
    assert not store.mutes.get("ann").muted_at(AT)  # type: ignore[union-attr]


def contract_an_account_opens_once(factory: StoreFactory) -> None:
    store = factory()
    assert store.accounts.get("ann") is None
    save(store, AccountRecord("ann", AT))
    assert store.accounts.get("ann") == AccountRecord("ann", AT, version=1)
    with pytest.raises(StaleVersion):
        save(store, AccountRecord("ann", AT.replace(hour=13)))  # a second opening raced the first: it loses
    assert store.accounts.get("ann") == AccountRecord("ann", AT, version=1)
    assert store.accounts.get("bob") is None


def contract_tables_list_in_number_order_within_their_tournament(factory: StoreFactory) -> None:
    store = factory()
    save(store, *(table("t1", table_id) for table_id in ("10", "2", "1", "11")), table("t2", "3"))
    assert [r.table_id for r in store.tables.list("t1")] == ["1", "2", "10", "11"]
    assert [r.table_id for r in store.tables.list("t2")] == ["3"]
    assert store.tables.list("t3") == []


ALL_CONTRACTS = (
    contract_an_account_opens_once,
    contract_tables_list_in_number_order_within_their_tournament,
    contract_audit_records_are_written_once_and_listed_by_tournament_and_player,
    contract_a_mute_is_versioned,
    contract_a_saved_record_reads_back_with_its_version_raised,
    contract_a_stale_save_fails_and_writes_nothing_of_its_unit,
    contract_a_new_record_must_not_exist,
    contract_check_is_a_condition_without_a_write,
    contract_an_unsaved_waiting_list_reads_empty_at_version_zero,
    contract_counter_shards_add_within_their_cap_and_refuse_once_sealed,
    contract_ledger_posts_are_idempotent_by_key,
    contract_money_never_goes_below_zero_and_a_failed_unit_moves_nothing,
    contract_registrations_list_by_state,
    contract_coordinator_and_entrants_round_trip,
)
