"""The ``Store`` port on DynamoDB: one repository per aggregate, and the unit of work (services/ports.py).

Reads are strongly consistent GetItems (one per record) or Queries over the
few partition keys a tournament's items are spread over. Writes go through
:class:`DynamoUnitOfWork`: every ``save``, ``check``, ``bump`` and ``post`` of
one unit of work is one ``TransactWriteItems``:

* ``save(record)``: a Put conditional on the stored version
  (``attribute_not_exists(pk)`` for version 0, else ``version = :v``); the
  item is stored with ``version + 1``;
* ``check(record)``: the same condition as a ConditionCheck;
* ``bump(shard, delta)``: ``ADD count :delta, version :1`` on the counter shard,
  conditional on the shard existing, not sealed, and staying within
  ``0..cap``, so concurrent registrations into one shard never conflict on a
  version and the cap is exact;
* ``post(entries)``: the ledger's items (``ledger.py``).

A cancelled transaction becomes the domain's error: a failed version, shard
or existence condition is ``StaleVersion`` (the service reads again and
retries); the ledger's own failures are ``IdempotencyConflict`` or
``InsufficientFunds``. Nothing is written when one is raised.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from pynamodb.expressions.condition import Condition
from pynamodb.models import Model

from tourney.adapters.dynamo.ledger import EXPLAINED, DynamoLedger, LedgerShards
from tourney.adapters.dynamo.mapping import Key, mapper_of
from tourney.adapters.dynamo.models import audit as au
from tourney.adapters.dynamo.models import tables as tm
from tourney.adapters.dynamo.models import tournaments as tn
from tourney.adapters.dynamo.transaction import Transaction, TransactionCancelled
from tourney.domain.errors import NotFound, StaleVersion
from tourney.domain.ledger import Entry
from tourney.domain.registration import TournamentStatus
from tourney.services.records import (
    AccountRecord,
    AuditRecord,
    CompensationBatch,
    CoordinatorRecord,
    CounterShard,
    DealingRecord,
    EntrantRecord,
    HandRecord,
    MuteRecord,
    NameRecord,
    Record,
    RegistrationRecord,
    RegistrationState,
    SeatingPlan,
    TableRecord,
    TournamentRecord,
    WaitingList,
)

MAX_PROBED_SHARDS = 100
"""Counter shards looked for when the tournament item does not say how many there are."""


R = TypeVar("R")


def _get(model: type[Model], pk: str, sk: str) -> Any:
    try:
        return model.get(pk, sk, consistent_read=True)
    except model.DoesNotExist:
        return None


def _read(record_type: type[R], model: type[Model], pk: str, sk: str) -> R | None:
    """The record stored at ``(pk, sk)``, read strongly consistent, or None."""
    item = _get(model, pk, sk)
    return None if item is None else mapper_of_type(record_type).from_item(item)


def _version_condition(model: type[Model], version: int) -> Condition:
    if version == 0:
        return model.pk.does_not_exist()  # type: ignore[attr-defined, no-any-return]
    return model.version == version  # type: ignore[attr-defined, no-any-return]


# -- repositories -----------------------------------------------------------------------------------------------------


class DynamoTournaments:
    def get(self, tournament_id: str) -> TournamentRecord:
        item = _get(tn.TournamentItem, tn.tournament_pk(tournament_id), tn.TOURNAMENT_SK)
        if item is None:
            raise NotFound(f"no tournament {tournament_id}")
        return mapper_of_type(TournamentRecord).from_item(item)  # type: ignore[no-any-return]

    def list(self) -> Sequence[TournamentRecord]:
        """Every tournament, from the lobby index (one Query per status), by start time then id."""
        found: list[TournamentRecord] = []
        for status in TournamentStatus:
            for item in tn.TournamentItem.lobby.query(tn.lobby_pk(status.value)):
                found.append(mapper_of_type(TournamentRecord).from_item(item))
        far = datetime.max.replace(tzinfo=UTC)
        return sorted(found, key=lambda t: (t.start_at or far, t.tournament_id))


class DynamoRegistrations:
    def get(self, tournament_id: str, player_id: str) -> RegistrationRecord | None:
        return _read(
            RegistrationRecord,
            tn.RegistrationItem,
            tn.registration_pk(tournament_id, tn.bucket(player_id)),
            tn.player_sk(player_id),
        )

    def list(self, tournament_id: str, state: RegistrationState | None = None) -> Sequence[RegistrationRecord]:
        """One strongly consistent Query per bucket (16), by player id."""
        records: list[RegistrationRecord] = []
        condition = None if state is None else tn.RegistrationItem.state == state.value
        for number in range(tn.BUCKETS):
            for item in tn.RegistrationItem.query(
                tn.registration_pk(tournament_id, number),
                tn.RegistrationItem.sk.startswith(tn.PLAYER_PREFIX),
                filter_condition=condition,
                consistent_read=True,
            ):
                records.append(mapper_of_type(RegistrationRecord).from_item(item))
        return sorted(records, key=lambda r: r.player_id)

    def shards(self, tournament_id: str, count: int | None = None) -> Sequence[CounterShard]:
        """The counter shards (strongly consistent BatchGetItem), by number; their count is the caller's, else the
        tournament item's."""
        if count is None:
            tournament = _get(tn.TournamentItem, tn.tournament_pk(tournament_id), tn.TOURNAMENT_SK)
            count = MAX_PROBED_SHARDS
            if tournament is not None:
                count = int((tournament.facts or {}).get("registration_shards", 1))
        keys = [(tn.counter_pk(tournament_id, shard), tn.COUNTER_SK) for shard in range(count)]
        mapper = mapper_of_type(CounterShard)
        shards = [mapper.from_item(item) for item in tn.CounterShardItem.batch_get(keys, consistent_read=True)]
        return sorted(shards, key=lambda s: s.shard)

    def shard(self, tournament_id: str, number: int) -> CounterShard | None:
        return _read(CounterShard, tn.CounterShardItem, tn.counter_pk(tournament_id, number), tn.COUNTER_SK)

    def waiting_list(self, tournament_id: str) -> WaitingList:
        item = _get(tn.WaitingListItem, tn.tournament_pk(tournament_id), tn.WAITING_LIST_SK)
        return WaitingList(tournament_id) if item is None else mapper_of_type(WaitingList).from_item(item)

    def plan(self, tournament_id: str, batch: int) -> SeatingPlan:
        item = _get(tn.SeatingPlanItem, tn.tournament_pk(tournament_id), tn.seating_sk(batch))
        if item is None:
            raise NotFound(f"no seating plan {batch} for {tournament_id}")
        return mapper_of_type(SeatingPlan).from_item(item)  # type: ignore[no-any-return]


class DynamoTables:
    def get(self, tournament_id: str, table_id: str) -> TableRecord:
        """One strongly consistent GetItem."""
        item = _get(tm.TableItem, tm.table_pk(tournament_id, table_id), tm.table_sk(table_id))
        if item is None:
            raise NotFound(f"no table {table_id} in {tournament_id}")
        return mapper_of_type(TableRecord).from_item(item)  # type: ignore[no-any-return]

    def get_many(self, tournament_id: str, table_ids: Collection[str]) -> dict[str, TableRecord]:
        """Strongly consistent BatchGetItems (PynamoDB asks again for what DynamoDB left unprocessed)."""
        keys = [(tm.table_pk(tournament_id, t), tm.table_sk(t)) for t in dict.fromkeys(table_ids)]
        mapper = mapper_of_type(TableRecord)
        found = (mapper.from_item(item) for item in tm.TableItem.batch_get(keys, consistent_read=True))
        return {record.table_id: record for record in found}

    def list(self, tournament_id: str) -> Sequence[TableRecord]:
        """One strongly consistent Query per bucket (32), by table id."""
        mapper = mapper_of_type(TableRecord)
        records = [
            mapper.from_item(item)
            for bucket in range(tm.TABLE_BUCKETS)
            for item in tm.TableItem.query(tm.tables_pk(tournament_id, bucket), consistent_read=True)
        ]
        return sorted(records, key=lambda t: (len(t.table_id), t.table_id))


class DynamoCoordinators:
    def get(self, tournament_id: str) -> CoordinatorRecord | None:
        return _read(CoordinatorRecord, tn.CoordinatorItem, tn.tournament_pk(tournament_id), tn.COORDINATOR_SK)


class DynamoDealing:
    def get(self, tournament_id: str) -> DealingRecord | None:
        return _read(DealingRecord, tn.DealingItem, tn.dealing_pk(tournament_id), tn.DEALING_SK)


class DynamoEntrants:
    def get(self, tournament_id: str, player_id: str) -> EntrantRecord | None:
        return _read(
            EntrantRecord,
            tn.EntrantItem,
            tn.entrant_pk(tournament_id, tn.entrant_bucket(player_id)),
            tn.player_sk(player_id),
        )

    def get_many(self, tournament_id: str, player_ids: Collection[str]) -> dict[str, EntrantRecord]:
        """Strongly consistent BatchGetItems (PynamoDB asks again for what DynamoDB left unprocessed)."""
        keys = [
            (tn.entrant_pk(tournament_id, tn.entrant_bucket(p)), tn.player_sk(p)) for p in dict.fromkeys(player_ids)
        ]
        mapper = mapper_of_type(EntrantRecord)
        found = (mapper.from_item(item) for item in tn.EntrantItem.batch_get(keys, consistent_read=True))
        return {record.player_id: record for record in found}

    def list(self, tournament_id: str) -> Sequence[EntrantRecord]:
        mapper = mapper_of_type(EntrantRecord)
        records = [
            mapper.from_item(item)
            for bucket in range(tn.ENTRANT_BUCKETS)
            for item in tn.EntrantItem.query(
                tn.entrant_pk(tournament_id, bucket),
                tn.EntrantItem.sk.startswith(tn.PLAYER_PREFIX),
                consistent_read=True,
            )
        ]
        return sorted(records, key=lambda r: r.player_id)


class DynamoHands:
    def get(self, tournament_id: str, table_id: str, hand_number: int) -> HandRecord:
        item = _get(tm.HandItem, tm.hand_pk(tournament_id, table_id), tm.hand_sk(hand_number))
        if item is None:
            raise NotFound(f"no finished hand {hand_number} at table {table_id}")
        return mapper_of_type(HandRecord).from_item(item)  # type: ignore[no-any-return]


class DynamoAudit:
    """The operators' acts: read by their key, or by Query (a tournament's partition, a player's index)."""

    def get(self, audit_id: str, tournament_id: str | None, player_id: str | None) -> AuditRecord | None:
        return _read(AuditRecord, au.AuditItem, au.audit_pk(tournament_id, player_id), au.act_sk(audit_id))

    def for_tournament(self, tournament_id: str) -> Sequence[AuditRecord]:
        mapper = mapper_of_type(AuditRecord)
        items = au.AuditItem.query(
            au.audit_pk(tournament_id, None), au.AuditItem.sk.startswith(au.ACT_PREFIX), consistent_read=True
        )
        return sorted((mapper.from_item(item) for item in items), key=lambda r: (r.at, r.audit_id))

    def for_player(self, player_id: str) -> Sequence[AuditRecord]:
        """One Query of the ``by_player`` index (eventually consistent, as every index)."""
        mapper = mapper_of_type(AuditRecord)
        items = au.AuditItem.by_player.query(au.player_key(player_id))
        return sorted((mapper.from_item(item) for item in items), key=lambda r: (r.at, r.audit_id))

    def latest(self, limit: int) -> Sequence[AuditRecord]:
        """One Query of the ``latest`` index, newest first, ``limit`` items at most (eventually consistent)."""
        mapper = mapper_of_type(AuditRecord)
        items = au.AuditItem.latest.query(au.FEED_KEY, scan_index_forward=False, limit=limit)
        return [mapper.from_item(item) for item in items][:limit]


class DynamoMutes:
    def get(self, player_id: str) -> MuteRecord | None:
        return _read(MuteRecord, au.MuteItem, au.mute_pk(player_id), au.MUTE_SK)


class DynamoAccounts:
    def get(self, player_id: str) -> AccountRecord | None:
        return _read(AccountRecord, au.AccountItem, au.account_pk(player_id), au.ACCOUNT_SK)


class DynamoCompensation:
    def batch(self, tournament_id: str, index: int) -> CompensationBatch | None:
        return _read(
            CompensationBatch,
            tn.CompensationBatchItem,
            tn.compensation_pk(tournament_id, index),
            tn.compensation_sk(index),
        )


class DynamoNames:
    def get(self, key: str) -> NameRecord | None:
        return _read(NameRecord, au.NameItem, au.name_pk(key), au.NAME_SK)


def mapper_of_type(record_type: type) -> Any:
    from tourney.adapters.dynamo.mapping import MAPPERS

    return MAPPERS[record_type]


# -- the unit of work -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordTag:
    """A record's item in a transaction: what a failed condition on it means."""

    what: str
    key: tuple[str, str]


class DynamoUnitOfWork:
    """Conditional writes collected, then committed as one ``TransactWriteItems`` (at most 100 items)."""

    def __init__(self, ledger: DynamoLedger) -> None:
        self._ledger = ledger
        self._saves: list[Record] = []
        self._checks: list[Record] = []
        self._bumps: list[tuple[CounterShard, int]] = []
        self._entries: list[Entry] = []
        self._done = False

    def save(self, record: Record) -> None:
        self._saves.append(record)

    def check(self, record: Record) -> None:
        self._checks.append(record)

    def bump(self, shard: CounterShard, delta: int) -> None:
        self._bumps.append((shard, delta))

    def post(self, entries: Iterable[Entry]) -> None:
        self._entries.extend(entries)

    def commit(self) -> None:
        if self._done:
            raise RuntimeError("a unit of work commits once")
        self._done = True
        self._ledger.run(self._entries, self._add_records, on_cancel=self._explain)

    def _add_records(self, tx: Transaction) -> None:
        for record in self._saves:
            mapper = mapper_of(record)
            key: Key = mapper.key(record)
            item = mapper.to_item(record, record.version + 1)
            tx.put(
                item, condition=_version_condition(key.model, record.version), tag=RecordTag("save", (key.pk, key.sk))
            )
        for record in self._checks:
            key = mapper_of(record).key(record)
            tx.check(
                key.model,
                key.pk,
                key.sk,
                _version_condition(key.model, record.version),
                tag=RecordTag("check", (key.pk, key.sk)),
            )
        for shard, delta in self._bumps:
            key = mapper_of(shard).key(shard)
            item = tn.CounterShardItem(key.pk, key.sk)
            counter = tn.CounterShardItem.filled
            condition = tn.CounterShardItem.pk.exists() & (tn.CounterShardItem.sealed == False)  # noqa: E712
            if delta > 0:
                condition &= counter <= shard.cap - delta
                condition &= tn.CounterShardItem.cap == shard.cap
            elif delta < 0:
                condition &= counter >= -delta
            tx.update(
                item,
                [counter.add(delta), tn.CounterShardItem.version.add(1)],
                condition=condition,
                tag=RecordTag("bump", (key.pk, key.sk)),
            )

    @staticmethod
    def _explain(cancelled: TransactionCancelled) -> None:
        """A failed record condition wins over the ledger's reasons: the service reads again and retries."""
        lost = [f for f in cancelled.failures if isinstance(f.tag, RecordTag)]
        if not all(f.code in EXPLAINED for f in cancelled.failures):
            raise cancelled
        if lost:
            what = ", ".join(f"{f.tag.what} {f.tag.key[0]} {f.tag.key[1]} ({f.code})" for f in lost)
            raise StaleVersion(f"the stored items changed: {what}")


class DynamoStore:
    """Every repository, and units of work over them (the ``Store`` port)."""

    def __init__(self, ledger_shards: LedgerShards | None = None) -> None:
        self.tournaments = DynamoTournaments()
        self.registrations = DynamoRegistrations()
        self.tables = DynamoTables()
        self.coordinators = DynamoCoordinators()
        self.dealing = DynamoDealing()
        self.entrants = DynamoEntrants()
        self.hands = DynamoHands()
        self.ledger = DynamoLedger(ledger_shards)
        self.audit = DynamoAudit()
        self.mutes = DynamoMutes()
        self.accounts = DynamoAccounts()
        self.names = DynamoNames()
        self.compensation = DynamoCompensation()

    def unit_of_work(self) -> DynamoUnitOfWork:
        return DynamoUnitOfWork(self.ledger)


def stored(record: Record) -> Record:
    """The record as it reads back after a save (its version one more)."""
    return replace(record, version=record.version + 1)
