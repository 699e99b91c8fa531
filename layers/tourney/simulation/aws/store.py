"""The ``Store`` port over another store, charging the running invocation what the DynamoDB adapter would request.

:class:`MeteredStore` wraps the store the services are given (in the simulated cloud, the ``StoreAs`` view of the
memory store) and, for each call, makes on the running :class:`~tourney.simulation.aws.model.Invocation` the
requests ``adapters/dynamo/store.py`` makes for it: a strongly consistent GetItem per record read, a Query per
bucket of a listing (16 for registrations and entrants, 32 for tables, one per status for the lobby), a
BatchGetItem of the counter shards after a GetItem of the tournament, and a commit as one TransactWriteItems of
its saves, checks, shard bumps and ledger items (a single save alone as a PutItem, as the adapter sends it). A
commit that loses a race or stays throttled through the adapter's retries raises ``StaleVersion``, as the adapter
does, and the service reads again and retries; a single write that meets a transaction fails the invocation.

Items are sized as the adapter writes them (``records.py``, cached by :class:`ItemSizes`); the ledger's items are
placed on the partitions the adapter uses (an entry's key, each player's account, the balance shards of pools,
house and external accounts, picked by the entry's player) with sizes estimated (:data:`LEDGER_ITEM_BYTES`); a
debit of a split account is charged to its home shard only (the adapter may take it from several).

With no invocation running (``current()`` is None: the harness setting a run up), nothing is charged. Whatever the
wrapped store has beyond the port (``money``, ``stored_table``...) passes through uncharged.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from tourney.adapters.dynamo.ledger import HISTORY_KINDS, LedgerShards
from tourney.adapters.dynamo.models import audit as au
from tourney.adapters.dynamo.models import ledger as lm
from tourney.adapters.dynamo.models import tables as tm
from tourney.adapters.dynamo.models import tournaments as tn
from tourney.domain.errors import NotFound, StaleVersion
from tourney.domain.ledger import Account, AccountKind, Entry
from tourney.domain.registration import TournamentStatus
from tourney.services.records import (
    CoordinatorRecord,
    CounterShard,
    DealingRecord,
    EntrantRecord,
    Record,
    RegistrationRecord,
    TableRecord,
    TournamentRecord,
)
from tourney.simulation.aws.items import Consistency
from tourney.simulation.aws.model import ADAPTER_TRANSACTION_RETRIES, Invocation, Throttled, TransactionConflict
from tourney.simulation.aws.records import StoredItem, stored_item
from tourney.simulation.aws.requests import Request

Current = Callable[[], Invocation | None]

LEDGER_ITEM_BYTES = {"entry": 320, "leg": 300, "balance": 110}
"""Estimated sizes of the ledger's items (an entry with its legs as JSON, a player's leg, a balance)."""


def _table(model: Any) -> str:
    return str(model.Meta.table_name)


class ItemSizes:
    """Records sized as stored, each key re-sized once every ``refresh`` versions (sizing one costs ~0.3 ms; a
    table item changes little from one action to the next).

    A record object seen before is answered from ``_seen`` (the memory store hands out the same objects: a listing
    of a large field reads each of them again at every step), which keeps the object so that its ``id`` is not
    reused; it is emptied past ``SEEN_MOST`` objects."""

    SEEN_MOST = 400_000

    def __init__(self, refresh: int = 64) -> None:
        self.refresh = refresh
        self._known: dict[tuple[Any, ...], tuple[int, StoredItem]] = {}
        """An item (the record's identity, ``_IDENTITIES``, or else where it is stored) -> the version it was last
        sized at, and the item as sized then."""
        self._seen: dict[int, tuple[Record, StoredItem]] = {}

    def of(self, record: Record) -> StoredItem:
        if type(record) is TableRecord:  # a new copy at every read (``MemoryStore.copy_tables``): known by identity
            return self._sized(record)
        seen = self._seen.get(id(record))
        if seen is not None and seen[0] is record:
            return seen[1]
        item = self._sized(record)
        if len(self._seen) >= self.SEEN_MOST:
            self._seen.clear()
        self._seen[id(record)] = (record, item)
        return item

    def _sized(self, record: Record) -> StoredItem:
        identity = _IDENTITIES.get(type(record))
        key = _where(record) if identity is None else identity(record)
        known = self._known.get(key)
        if known is not None and record.version - known[0] < self.refresh:
            return known[1]
        item = stored_item(record)
        self._known[key] = (record.version, item)
        return item


def _where(record: Record) -> tuple[str, str, str]:
    from tourney.adapters.dynamo.mapping import mapper_of

    key = mapper_of(record).key(record)
    return (_table(key.model), key.pk, key.sk)


_IDENTITIES: dict[type, Callable[[Any], tuple[Any, ...]]] = {
    TableRecord: lambda r: (TableRecord, r.tournament_id, r.table_id),
    EntrantRecord: lambda r: (EntrantRecord, r.tournament_id, r.player_id),
    RegistrationRecord: lambda r: (RegistrationRecord, r.tournament_id, r.player_id),
    CoordinatorRecord: lambda r: (CoordinatorRecord, r.tournament_id),
    TournamentRecord: lambda r: (TournamentRecord, r.tournament_id),
    DealingRecord: lambda r: (DealingRecord, r.tournament_id),
    CounterShard: lambda r: (CounterShard, r.tournament_id, r.shard),
}
"""The fields the adapter's key of a record is made of (``adapters/dynamo/mapping.py``), for the records read and
written again and again: one item each, known without building the adapter's key."""


class MeteredStore:
    """The store port, each call also made on the running invocation as DynamoDB requests."""

    def __init__(self, inner: Any, current: Current, sizes: ItemSizes | None = None) -> None:
        self.inner = inner
        self._current = current
        self.sizes = sizes or ItemSizes()
        self.ledger_shards = LedgerShards()
        self.tournaments = _Tournaments("tournaments", self)
        self.registrations = _Registrations("registrations", self)
        self.tables = _Tables("tables", self)
        self.coordinators = _ByGet("coordinators", self, _coordinator_key)
        self.dealing = _ByGet("dealing", self, _dealing_key)
        self.entrants = _Entrants("entrants", self)
        self.hands = _ByGet("hands", self, _hand_key)
        self.ledger = _Ledger("ledger", self)
        self.audit = _Audit("audit", self)
        self.mutes = _ByGet("mutes", self, _mute_key)
        self.accounts = _ByGet("accounts", self, _account_key)
        self.names = _ByGet("names", self, _name_key)
        self.compensation = _Compensation("compensation", self)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def unit_of_work(self) -> _UnitOfWork:
        return _UnitOfWork(self.inner.unit_of_work(), self)

    # -- charging ----------------------------------------------------------------------------------------------

    def run(self) -> Invocation | None:
        return self._current()

    def charge_get(self, found: Record | None, missing: StoredItem) -> None:
        run = self._current()
        if run is not None:
            run.get(self.sizes.of(found) if found is not None else missing)

    def charge_batch_get(self, found: Mapping[str, Record], keys: Mapping[str, StoredItem]) -> None:
        """A BatchGetItem of ``keys`` (none: no request), each charged at the size of what was found under it."""
        run = self._current()
        if run is not None and keys:
            run.batch_get([self.sizes.of(found[k]) if k in found else missing for k, missing in keys.items()])

    def charge_query(
        self, partition: StoredItem, records: Iterable[Record], consistency: Consistency = Consistency.STRONG
    ) -> None:
        run = self._current()
        if run is not None:
            run.query(partition.partition, [self.sizes.of(r).size for r in records], consistency)

    def charge_queries(
        self,
        table: str,
        partitions: Sequence[str],
        records: Iterable[Any],
        where: Callable[[Any], str] | None = None,
        consistency: Consistency = Consistency.STRONG,
    ) -> None:
        """One Query per partition key of ``partitions``; each returns the records ``where`` places in it (by
        default, the partition the record is stored in)."""
        run = self._current()
        if run is None:
            return
        sizes: dict[str, list[int]] = {pk: [] for pk in partitions}
        of = self.sizes.of
        for record in records:
            item = of(record)
            sizes.setdefault(item.partition_key if where is None else where(record), []).append(item.size)
        for pk in partitions:
            run.query(f"{table}/{pk}", sizes[pk], consistency)


class _Repo:
    """One repository of the wrapped store, looked up at each call: a ``StoreAs`` swaps its repositories for the
    running function's view (``become``), and the permissions must still apply."""

    def __init__(self, name: str, store: MeteredStore) -> None:
        self._name = name
        self._store = store

    @property
    def _inner(self) -> Any:
        return getattr(self._store.inner, self._name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _read(self, read: Callable[[], Any], key: Callable[[], StoredItem]) -> Any:
        """One GetItem of ``key()``: what ``read`` finds (None or NotFound: nothing), charged at its size (the key is
        built only for an item not found: a found one is charged as sized)."""
        try:
            found = read()
        except NotFound:
            self._store.charge_get(None, key())
            raise
        self._store.charge_get(found, _FOUND if found is not None else key())
        return found


def _missing(model: Any, pk: str, sk: str) -> StoredItem:
    return StoredItem(_table(model), pk, sk)


_FOUND = StoredItem("", "", "")
"""The key ``charge_get`` is handed for a record found (it charges the record as sized, not its key)."""


class _Tournaments(_Repo):
    def get(self, tournament_id: str) -> Any:
        key = lambda: _missing(tn.TournamentItem, tn.tournament_pk(tournament_id), tn.TOURNAMENT_SK)  # noqa: E731
        return self._read(lambda: self._inner.get(tournament_id), key)

    def list(self) -> Any:
        found = self._inner.list()
        table = _table(tn.TournamentItem)
        statuses = [status.value for status in TournamentStatus]
        self._store.charge_queries(
            table,
            [tn.lobby_pk(s) for s in statuses],
            found,
            lambda t: tn.lobby_pk(str(t.status)),
            Consistency.EVENTUAL,
        )
        return found


class _Registrations(_Repo):
    def get(self, tournament_id: str, player_id: str) -> Any:
        return self._read(
            lambda: self._inner.get(tournament_id, player_id),
            lambda: _missing(
                tn.RegistrationItem, tn.registration_pk(tournament_id, tn.bucket(player_id)), tn.player_sk(player_id)
            ),
        )

    def list(self, tournament_id: str, state: Any = None) -> Any:
        found = self._inner.list(tournament_id, state)
        self._store.charge_queries(
            _table(tn.RegistrationItem),
            [tn.registration_pk(tournament_id, n) for n in range(tn.BUCKETS)],
            found,  # each in the partition it is stored in
        )
        return found

    def shards(self, tournament_id: str, count: int | None = None) -> Any:
        found: Sequence[CounterShard] = self._inner.shards(tournament_id, count)
        store = self._store
        run = store.run()
        if run is None:
            return found
        if count is None:  # the store looks the number up on the tournament item
            tournament = _missing(tn.TournamentItem, tn.tournament_pk(tournament_id), tn.TOURNAMENT_SK)
            try:
                store.charge_get(store.inner.tournaments.get(tournament_id), tournament)
            except NotFound:
                store.charge_get(None, tournament)
        run.batch_get([store.sizes.of(shard) for shard in found])
        return found

    def shard(self, tournament_id: str, number: int) -> Any:
        key = lambda: _missing(tn.CounterShardItem, tn.counter_pk(tournament_id, number), tn.COUNTER_SK)  # noqa: E731
        return self._read(lambda: self._inner.shard(tournament_id, number), key)

    def waiting_list(self, tournament_id: str) -> Any:
        found = self._inner.waiting_list(tournament_id)
        pk = tn.tournament_pk(tournament_id)
        self._store.charge_get(found if found.version else None, _missing(tn.WaitingListItem, pk, tn.WAITING_LIST_SK))
        return found

    def plan(self, tournament_id: str, batch: int) -> Any:
        key = lambda: _missing(tn.SeatingPlanItem, tn.tournament_pk(tournament_id), tn.seating_sk(batch))  # noqa: E731
        return self._read(lambda: self._inner.plan(tournament_id, batch), key)


class _Tables(_Repo):
    def get(self, tournament_id: str, table_id: str) -> Any:
        key = lambda: _missing(tm.TableItem, tm.table_pk(tournament_id, table_id), tm.table_sk(table_id))  # noqa: E731
        return self._read(lambda: self._inner.get(tournament_id, table_id), key)

    def get_many(self, tournament_id: str, table_ids: Collection[str]) -> Any:
        found = self._inner.get_many(tournament_id, table_ids)
        keys = {t: _missing(tm.TableItem, tm.table_pk(tournament_id, t), tm.table_sk(t)) for t in table_ids}
        self._store.charge_batch_get(found, keys)
        return found

    def list(self, tournament_id: str) -> Any:
        found = self._inner.list(tournament_id)
        self._store.charge_queries(
            _table(tm.TableItem),
            [tm.tables_pk(tournament_id, n) for n in range(tm.TABLE_BUCKETS)],
            found,
            lambda t: tm.table_pk(tournament_id, t.table_id),
        )
        return found


class _Entrants(_Repo):
    def get(self, tournament_id: str, player_id: str) -> Any:
        return self._read(
            lambda: self._inner.get(tournament_id, player_id),
            lambda: _missing(
                tn.EntrantItem, tn.entrant_pk(tournament_id, tn.entrant_bucket(player_id)), tn.player_sk(player_id)
            ),
        )

    def get_many(self, tournament_id: str, player_ids: Collection[str]) -> Any:
        found = self._inner.get_many(tournament_id, player_ids)
        keys = {
            p: _missing(tn.EntrantItem, tn.entrant_pk(tournament_id, tn.entrant_bucket(p)), tn.player_sk(p))
            for p in player_ids
        }
        self._store.charge_batch_get(found, keys)
        return found

    def list(self, tournament_id: str) -> Any:
        found = self._inner.list(tournament_id)
        self._store.charge_queries(
            _table(tn.EntrantItem),
            [tn.entrant_pk(tournament_id, n) for n in range(tn.ENTRANT_BUCKETS)],
            found,  # each in the partition it is stored in
        )
        return found


class _ByGet(_Repo):
    """A repository read only by key (coordinators, hands, mutes): one GetItem per call."""

    def __init__(self, name: str, store: MeteredStore, key: Callable[..., StoredItem]) -> None:
        super().__init__(name, store)
        self._key = key

    def get(self, *args: Any) -> Any:
        return self._read(lambda: self._inner.get(*args), lambda: self._key(*args))


def _coordinator_key(tournament_id: str) -> StoredItem:
    return _missing(tn.CoordinatorItem, tn.tournament_pk(tournament_id), tn.COORDINATOR_SK)


def _dealing_key(tournament_id: str) -> StoredItem:
    return _missing(tn.DealingItem, tn.dealing_pk(tournament_id), tn.DEALING_SK)


def _hand_key(tournament_id: str, table_id: str, hand_number: int) -> StoredItem:
    return _missing(tm.HandItem, tm.hand_pk(tournament_id, table_id), tm.hand_sk(hand_number))


def _mute_key(player_id: str) -> StoredItem:
    return _missing(au.MuteItem, au.mute_pk(player_id), au.MUTE_SK)


def _account_key(player_id: str) -> StoredItem:
    return _missing(au.AccountItem, au.account_pk(player_id), au.ACCOUNT_SK)


class _Compensation(_Repo):
    def batch(self, tournament_id: str, index: int) -> Any:
        key = lambda: _missing(  # noqa: E731
            tn.CompensationBatchItem, tn.compensation_pk(tournament_id, index), tn.compensation_sk(index)
        )
        return self._read(lambda: self._inner.batch(tournament_id, index), key)


def _name_key(key: str) -> StoredItem:
    return _missing(au.NameItem, au.name_pk(key), au.NAME_SK)


class _Audit(_Repo):
    def get(self, audit_id: str, tournament_id: str | None, player_id: str | None) -> Any:
        key = lambda: _missing(au.AuditItem, au.audit_pk(tournament_id, player_id), au.act_sk(audit_id))  # noqa: E731
        return self._read(lambda: self._inner.get(audit_id, tournament_id, player_id), key)

    def for_tournament(self, tournament_id: str) -> Any:
        found = self._inner.for_tournament(tournament_id)
        self._store.charge_query(_missing(au.AuditItem, au.audit_pk(tournament_id, None), ""), found)
        return found


class _Ledger(_Repo):
    """Balances (a GetItem, or a BatchGetItem of a split account's shards) and a player's legs (a Query)."""

    def balance(self, account: Account) -> Any:
        found = self._inner.balance(account)
        run = self._store.run()
        if run is not None:
            count = self._store.ledger_shards.of(account)
            size, table, name = LEDGER_ITEM_BYTES["balance"], _table(lm.BalanceItem), str(account)
            if count == 1:
                run.get(StoredItem(table, lm.account_pk(name), lm.BALANCE_SK, size))
            else:
                run.batch_get([StoredItem(table, lm.account_pk(name, n), lm.BALANCE_SK, size) for n in range(count)])
        return found

    def entries(self, account: Account, *args: Any, **kwargs: Any) -> Any:
        found = self._inner.entries(account, *args, **kwargs)
        run = self._store.run()
        if run is not None:
            sizes = [LEDGER_ITEM_BYTES["leg"]] * len(found)
            run.query(f"{_table(lm.LegItem)}/{lm.account_pk(str(account))}", sizes)
        return found


def ledger_items(entries: Iterable[Entry], shards: LedgerShards | None = None) -> list[StoredItem]:
    """The items a posting of ``entries`` writes, on the adapter's partitions: each entry's item, a leg item per
    player leg, and each touched balance (shard) once."""
    shards = shards or LedgerShards()
    table = _table(lm.EntryItem)
    items: list[StoredItem] = []
    balances: dict[str, None] = {}
    for entry in entries:
        anchor = next((leg.account.owner for leg in entry.legs if leg.account.kind is AccountKind.PLAYER), entry.key)
        items.append(StoredItem(table, lm.entry_pk(entry.key), lm.ENTRY_SK, LEDGER_ITEM_BYTES["entry"]))
        for leg in entry.legs:
            count = shards.of(leg.account)
            home = None if count == 1 else zlib.crc32(anchor.encode()) % count
            pk = lm.account_pk(str(leg.account), home)
            balances[pk] = None
            if leg.account.kind in HISTORY_KINDS:
                sk = lm.leg_sk(entry.at.isoformat(), entry.key)
                items.append(StoredItem(table, pk, sk, LEDGER_ITEM_BYTES["leg"]))
    items.extend(StoredItem(table, pk, lm.BALANCE_SK, LEDGER_ITEM_BYTES["balance"]) for pk in balances)
    return items


class _UnitOfWork:
    """Collects the writes, charges them as the adapter sends them, then commits the wrapped unit of work."""

    def __init__(self, inner: Any, store: MeteredStore) -> None:
        self._inner = inner
        self._store = store
        self._saves: list[Record] = []
        self._checks: list[Record] = []
        self._bumps: list[CounterShard] = []
        self._entries: list[Entry] = []

    def save(self, record: Record) -> None:
        self._saves.append(record)
        self._inner.save(record)

    def check(self, record: Record) -> None:
        self._checks.append(record)
        self._inner.check(record)

    def bump(self, shard: CounterShard, delta: int) -> None:
        self._bumps.append(shard)
        self._inner.bump(shard, delta)

    def post(self, entries: Iterable[Entry]) -> None:
        entries = list(entries)
        self._entries.extend(entries)
        self._inner.post(entries)

    def commit(self) -> None:
        run = self._store.run()
        if run is not None:
            self._charge(run)
        self._inner.commit()

    def _charge(self, run: Invocation) -> None:
        """The adapter's requests for this commit; a race or a throttle it gives up on is ``StaleVersion``, as
        ``DynamoUnitOfWork`` raises it (the service reads again and retries)."""
        sizes = self._store.sizes
        writes = [sizes.of(r) for r in self._saves]
        writes += [sizes.of(s) for s in self._bumps]
        writes += ledger_items(self._entries, self._store.ledger_shards)
        checks = [sizes.of(r) for r in self._checks]
        if len(writes) + len(checks) == 0:
            return
        try:
            if len(self._saves) == 1 and len(writes) == 1 and not checks:
                self._put_alone(run, writes[0])
            else:
                run.transact(writes, checks)
        except (Throttled, TransactionConflict) as lost:
            raise StaleVersion(f"the transaction lost a race: {lost}") from lost

    @staticmethod
    def _put_alone(run: Invocation, item: StoredItem) -> None:
        """A single conditional PutItem; throttled through the SDK's retries, the adapter sends it again after 20,
        40 and 80 ms (``Transaction.commit``). A conflict with a transaction is not retried: PynamoDB's error
        fails the invocation."""
        for wait in (*ADAPTER_TRANSACTION_RETRIES, None):
            try:
                run.write(item, before=item.size, request=Request.PUT_ITEM)
                return
            except Throttled:
                if wait is None:
                    raise
                run.watch.wait(wait)
