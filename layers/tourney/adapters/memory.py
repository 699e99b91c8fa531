"""In-memory adapters of every port: they behave like the DynamoDB ones (versions, atomic commits, idempotency).

For service tests and the in-process simulation. Records are copied in and
out (tables and the coordinator's state through their ``to_dict``/``from_dict``,
as a store would), so a service that changes a record it read changes
nothing stored until its unit of work commits. A commit checks every
condition first and then applies every write, under one lock: all or nothing,
safe across threads. ``MemoryStore.before_commit`` lets a test hold a commit
(to make two requests race); ``MemoryStore.commit_hook`` is called with
``"before"`` and ``"after"`` around each commit (the fault injector kills an
invocation there).

``MemoryStore(copy_records=False)`` is the fast mode of a single-threaded
simulation with no faults: records are handed out and stored as they are,
not copied. It is only correct where every service that changes a record it
read also commits it, which the copying mode, run on the same seeds by the
tests, shows. ``copy_tables=True`` keeps the fast mode correct where a unit
of work may fail after its service changed a table (AWS modeled: a write
throttled or meeting a transaction): each table is handed out as a copy of
its own seats and hand (``Table.copy``), the one record a service changes in
place, for a small part of a full copy's cost.
"""

from __future__ import annotations

import copy
import marshal
import threading
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from tourney.adapters.memory_audit import MemoryAudit, MemoryMutes, audit_key, mute_key
from tourney.domain.balancing import Balancing
from tourney.domain.errors import NotFound, StaleVersion
from tourney.domain.hand_for_hand import HandForHand
from tourney.domain.ledger import Account, Entry, Ledger
from tourney.domain.table import Table
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue, TablesSettled, TimeoutDue
from tourney.services.ports import Push, TablePush
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
    evolve,
)

Key = tuple[Any, ...]

EPOCH = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


_KEYS: dict[type, Callable[[Any], Key]] = {
    TournamentRecord: lambda r: ("tournament", r.tournament_id),
    RegistrationRecord: lambda r: ("registration", r.tournament_id, r.player_id),
    CounterShard: lambda r: ("shard", r.tournament_id, r.shard),
    WaitingList: lambda r: ("waiting_list", r.tournament_id),
    SeatingPlan: lambda r: ("plan", r.tournament_id, r.batch),
    TableRecord: lambda r: ("table", r.tournament_id, r.table_id),
    CoordinatorRecord: lambda r: ("coordinator", r.tournament_id),
    DealingRecord: lambda r: ("dealing", r.tournament_id),
    EntrantRecord: lambda r: ("entrant", r.tournament_id, r.player_id),
    HandRecord: lambda r: ("hand", r.tournament_id, r.table_id, r.hand_number),
    AuditRecord: audit_key,
    MuteRecord: mute_key,
    AccountRecord: lambda r: ("account", r.player_id),
    NameRecord: lambda r: ("name", r.key),
    CompensationBatch: lambda r: ("compensation", r.tournament_id, r.index),
}


def record_key(record: Record) -> Key:
    """The stored identity of a record (its primary key), looked up by the record's type (a hot path)."""
    key = _KEYS.get(type(record))
    if key is None:
        for kind, make in _KEYS.items():  # a subclass, or a record type added since
            if isinstance(record, kind):
                return make(record)
        raise TypeError(f"not a record: {record!r}")
    return key(record)


_IMMUTABLE = (
    TournamentRecord,
    RegistrationRecord,
    CounterShard,
    WaitingList,
    SeatingPlan,
    CompensationBatch,
    DealingRecord,
)
"""Frozen records of frozen values (configurations, tuples, times): shared, never copied."""


def _copy(record: Any) -> Any:
    """A deep copy, through plain data for the domain aggregates (as a store serializes them)."""
    if isinstance(record, TableRecord):
        return replace(record, table=Table.from_dict(record.table.to_dict()))
    if isinstance(record, CoordinatorRecord):
        # The configuration and the clock are frozen values; the mutable parts are copied through plain data.
        state = record.state
        rounds = state.hand_for_hand
        return replace(
            record,
            state=replace(
                state,
                balancing=Balancing.from_dict(state.balancing.to_dict()),
                hand_for_hand=HandForHand.from_dict(rounds.to_dict()) if rounds is not None else None,
            ),
        )
    if isinstance(record, _IMMUTABLE):
        return record
    if isinstance(record, EntrantRecord):
        return replace(record, contribution=replace(record.contribution))
    return copy.deepcopy(record)


PackedHand = tuple[int, bytes]
"""A finished hand as the store keeps it: (version, the record serialized). A plain tuple of a number and
bytes, so the garbage collector stops tracking it: a large field stores 100,000 hands."""


def _packed(record: HandRecord, version: int) -> PackedHand:
    """A finished hand at ``version`` serialized with marshal, as a store would keep it."""
    fields = (
        record.tournament_id,
        record.table_id,
        record.hand_number,
        record.hand,
        record.players,
        record.seat_count,
        record.level,
        _instant(record.dealt_at),
        _instant(record.ended_at),
        record.button_draw,
    )
    return (version, marshal.dumps(fields))


_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)


def _instant(when: datetime) -> int | str:
    """A UTC time as whole microseconds since 1970 (a third of ``isoformat``'s cost); any other as ISO text."""
    if when.tzinfo is UTC:
        return (when - _UNIX_EPOCH) // _MICRO
    return when.isoformat()


def _from_instant(kept: int | str) -> datetime:
    if type(kept) is int:
        return _UNIX_EPOCH + timedelta(0, 0, kept)
    return datetime.fromisoformat(kept)  # type: ignore[arg-type]


def _unpacked(packed: PackedHand) -> HandRecord:
    """A fresh copy of the stored hand, read back."""
    version, data = packed
    tid, table_id, number, hand, players, seat_count, level, dealt_at, ended_at, button_draw = marshal.loads(data)
    return HandRecord(
        tournament_id=tid,
        table_id=table_id,
        hand_number=number,
        hand=hand,
        players=players,
        seat_count=seat_count,
        level=level,
        dealt_at=_from_instant(dealt_at),
        ended_at=_from_instant(ended_at),
        version=version,
        button_draw=button_draw,
    )


def _stored_version(stored: Any) -> int:
    if stored is None:
        return 0
    return stored[0] if type(stored) is tuple else stored.version  # type: ignore[no-any-return]


def _next_version(record: Any) -> Any:
    """The record as stored by a commit: one version on (a finished hand packed at it, with no copy first)."""
    if type(record) is HandRecord:
        return _packed(record, record.version + 1)
    return evolve(record, version=record.version + 1)


class FrozenClock:
    """A clock that moves only when told (``advance``)."""

    def __init__(self, now: datetime = EPOCH) -> None:
        if now.tzinfo is None:
            raise ValueError("the clock is timezone-aware")
        self._now = now

    def now(self) -> datetime:
        return self._now

    def set(self, now: datetime) -> None:
        self._now = now

    def advance(self, seconds: float) -> datetime:
        self._now += timedelta(seconds=seconds)
        return self._now


class MemoryUnitOfWork:
    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self._saves: list[Record] = []
        self._checks: list[Record] = []
        self._bumps: list[tuple[CounterShard, int]] = []
        self._entries: list[Entry] = []
        self._done = False

    def save(self, record: Record) -> None:
        self._saves.append(_copy(record) if self._store.copy_records else record)

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
        self._store._commit(self._saves, self._checks, self._bumps, self._entries)


class MemoryStore:
    """Every repository over one dict of records and one ``Ledger``."""

    def __init__(self, *, copy_records: bool = True, copy_tables: bool = False) -> None:
        self.copy_records = copy_records
        self.copy_tables = copy_tables and not copy_records
        self._items: dict[Key, Any] = {}
        self._buckets: dict[Key, dict[Key, None]] = {}
        """The keys by (kind, tournament), in the order first saved: a scan of one tournament's tables reads
        only those. Keys, not items: an item saved again (most commits) changes ``_items`` alone."""
        self._kinds: dict[Any, dict[Key, None]] = {}
        self._ledger = Ledger()
        self._lock = threading.RLock()
        self.before_commit: Callable[[], None] | None = None
        self.commit_hook: Callable[[str], None] | None = None
        self.on_saved: Callable[[Record], None] | None = None
        """Called with each record a commit saved, once it applied (the simulation watches hands end)."""
        self.commits = 0
        self.tournaments = _Tournaments(self)
        self.registrations = _Registrations(self)
        self.tables = _Tables(self)
        self.coordinators = _Coordinators(self)
        self.dealing = _Dealing(self)
        self.entrants = _Entrants(self)
        self.hands = _Hands(self)
        self.ledger = _LedgerReader(self)
        self.audit = MemoryAudit(self)
        self.mutes = MemoryMutes(self)
        self.accounts = _Accounts(self)
        self.names = _Names(self)
        self.compensation = _Compensation(self)

    @property
    def money(self) -> Ledger:
        """The ledger itself, for checks (``verify_invariants``, ``summary``)."""
        return self._ledger

    def unit_of_work(self) -> MemoryUnitOfWork:
        return MemoryUnitOfWork(self)

    def stored_table(self, tournament_id: str, table_id: str) -> TableRecord:
        """The stored table itself, not a copy: for read-only observers (the simulation's bots and checks)."""
        found: TableRecord | None = self._items.get(("table", tournament_id, table_id))  # atomic: no lock
        if found is None:
            raise NotFound(f"no table {table_id} in {tournament_id}")
        return found

    def stored_entrants(self, tournament_id: str) -> list[EntrantRecord]:
        """Every stored entrant of the tournament, not copies (read-only), in no order."""
        with self._lock:
            return self._values(self._buckets.get(("entrant", tournament_id), ()))

    def stored_tables(self, tournament_id: str) -> list[TableRecord]:
        """Every stored table of the tournament, not copies (read-only), by table id."""
        with self._lock:
            return self._values(sorted(self._buckets.get(("table", tournament_id), ()), key=_by_table_number))

    # -- reading ----------------------------------------------------------------

    def _values(self, keys: Iterable[Key]) -> list[Any]:
        """The stored items of ``keys`` themselves (an index's), not copies."""
        items = self._items
        return [items[key] for key in keys]

    def _get(self, key: Key) -> Any:
        # No lock: one dict lookup is atomic, and a stored item is never changed in place (a commit puts a new
        # one; the copying store hands out copies, the fast one is single-threaded), so it copies safely.
        found = self._items.get(key)
        if found is None:
            return None
        if type(found) is tuple:
            return _unpacked(found)
        return self._handed_out(found)

    def _scan(self, prefix: Key, order: Callable[[Key], Any] | None = None) -> list[Any]:
        """The items under ``prefix``, by key (or by ``order`` of the key): copies, as a query returns them."""
        with self._lock:
            n = len(prefix)
            keys = self._buckets.get(prefix[:2], ()) if n >= 2 else self._kinds.get(prefix[0], ())
            ordered = sorted(keys, key=order)
            found = self._values(ordered if n <= 2 else (k for k in ordered if k[:n] == prefix))
            if found and type(found[0]) is tuple:
                return [_unpacked(v) for v in found]
            if self.copy_records or (self.copy_tables and found and type(found[0]) is TableRecord):
                return [self._handed_out(v) for v in found]
            return found

    def _handed_out(self, record: Any) -> Any:
        """A stored record as a read hands it out: a copy, a table's own seats and hand, or the record itself."""
        if self.copy_records:
            return _copy(record)
        if self.copy_tables and type(record) is TableRecord:
            return replace(record, table=record.table.copy())
        return record

    def _put(self, key: Key, value: Any) -> None:
        items = self._items
        if key not in items:
            self._buckets.setdefault(key[:2], {})[key] = None
            self._kinds.setdefault(key[0], {})[key] = None
        items[key] = value

    # -- writing ----------------------------------------------------------------

    def _commit(
        self,
        saves: Sequence[Record],
        checks: Sequence[Record],
        bumps: Sequence[tuple[CounterShard, int]],
        entries: Sequence[Entry],
    ) -> None:
        if self.before_commit is not None:
            self.before_commit()
        if self.commit_hook is not None:
            self.commit_hook("before")
        if len(saves) == 1 and not checks and not bumps and not entries:
            self._commit_one(saves[0])  # an action or a time-out: one table, nothing else
        else:
            self._commit_many(saves, checks, bumps, entries)
        if self.on_saved is not None:
            for record in saves:
                self.on_saved(record)
        if self.commit_hook is not None:
            self.commit_hook("after")

    def _check_version(self, key: Key, record: Record) -> None:
        stored_version = _stored_version(self._items.get(key))
        if stored_version != record.version:
            raise StaleVersion(f"{key} is at version {stored_version}, not {record.version}")

    def _commit_one(self, record: Record) -> None:
        key = record_key(record)
        with self._lock:
            self._check_version(key, record)
            self._put(key, _next_version(record))
            self.commits += 1

    def _commit_many(
        self,
        saves: Sequence[Record],
        checks: Sequence[Record],
        bumps: Sequence[tuple[CounterShard, int]],
        entries: Sequence[Entry],
    ) -> None:
        with self._lock:
            conditioned = [*saves, *checks]
            keys = [record_key(r) for r in conditioned]
            shard_keys = [record_key(s) for s, _ in bumps]
            if len(set(keys) | set(shard_keys)) != len(keys) + len(shard_keys):
                raise ValueError("a unit of work touches an item twice")
            items = self._items
            for key, record in zip(keys, conditioned, strict=True):
                self._check_version(key, record)
            bumped: list[tuple[Key, CounterShard]] = []
            for key, (_, delta) in zip(shard_keys, bumps, strict=True):
                stored = items.get(key)
                if stored is None:
                    raise StaleVersion(f"no counter shard {key}")
                if stored.sealed or not 0 <= stored.count + delta <= stored.cap:
                    raise StaleVersion(f"counter shard {key} cannot change by {delta}")
                bumped.append((key, replace(stored, count=stored.count + delta, version=stored.version + 1)))
            if entries:
                self._ledger.verify_post_all(entries)
                self._ledger.post_all(entries)
            for key, record in zip(keys, saves, strict=False):
                self._put(key, _next_version(record))
            for key, shard in bumped:
                self._put(key, shard)
            self.commits += 1


class _Repo:
    def __init__(self, store: MemoryStore) -> None:
        self._s = store


class _Tournaments(_Repo):
    def get(self, tournament_id: str) -> TournamentRecord:
        found = self._s._get(("tournament", tournament_id))
        if found is None:
            raise NotFound(f"no tournament {tournament_id}")
        return found  # type: ignore[no-any-return]

    def list(self) -> Sequence[TournamentRecord]:
        far = datetime.max.replace(tzinfo=UTC)
        found: list[TournamentRecord] = self._s._scan(("tournament",))
        return sorted(found, key=lambda t: (t.start_at or far, t.tournament_id))


class _Registrations(_Repo):
    def get(self, tournament_id: str, player_id: str) -> RegistrationRecord | None:
        return self._s._get(("registration", tournament_id, player_id))  # type: ignore[no-any-return]

    def list(self, tournament_id: str, state: RegistrationState | None = None) -> Sequence[RegistrationRecord]:
        found: list[RegistrationRecord] = self._s._scan(("registration", tournament_id))
        return [r for r in found if state is None or r.state is state]

    def shards(self, tournament_id: str, count: int | None = None) -> Sequence[CounterShard]:
        return self._s._scan(("shard", tournament_id))

    def shard(self, tournament_id: str, number: int) -> CounterShard | None:
        found: CounterShard | None = self._s._get(("shard", tournament_id, number))
        return found

    def waiting_list(self, tournament_id: str) -> WaitingList:
        found = self._s._get(("waiting_list", tournament_id))
        return found if found is not None else WaitingList(tournament_id)

    def plan(self, tournament_id: str, batch: int) -> SeatingPlan:
        found = self._s._get(("plan", tournament_id, batch))
        if found is None:
            raise NotFound(f"no seating plan {batch} for {tournament_id}")
        return found  # type: ignore[no-any-return]


def _by_table_number(key: Key) -> tuple[int, str]:
    """Tables in number order ("t2" before "t10"), from a table's key."""
    table_id = key[2]
    return len(table_id), table_id


class _Tables(_Repo):
    def get(self, tournament_id: str, table_id: str) -> TableRecord:
        found = self._s._get(("table", tournament_id, table_id))
        if found is None:
            raise NotFound(f"no table {table_id} in {tournament_id}")
        return found  # type: ignore[no-any-return]

    def get_many(self, tournament_id: str, table_ids: Collection[str]) -> dict[str, TableRecord]:
        found = ((t, self._s._get(("table", tournament_id, t))) for t in table_ids)
        return {t: record for t, record in found if record is not None}

    def list(self, tournament_id: str) -> Sequence[TableRecord]:
        return self._s._scan(("table", tournament_id), _by_table_number)


class _Coordinators(_Repo):
    def get(self, tournament_id: str) -> CoordinatorRecord | None:
        return self._s._get(("coordinator", tournament_id))  # type: ignore[no-any-return]


class _Dealing(_Repo):
    def get(self, tournament_id: str) -> DealingRecord | None:
        return self._s._get(("dealing", tournament_id))  # type: ignore[no-any-return]


class _Entrants(_Repo):
    def get(self, tournament_id: str, player_id: str) -> EntrantRecord | None:
        return self._s._get(("entrant", tournament_id, player_id))  # type: ignore[no-any-return]

    def get_many(self, tournament_id: str, player_ids: Collection[str]) -> dict[str, EntrantRecord]:
        found = ((p, self._s._get(("entrant", tournament_id, p))) for p in player_ids)
        return {p: record for p, record in found if record is not None}

    def list(self, tournament_id: str) -> Sequence[EntrantRecord]:
        return self._s._scan(("entrant", tournament_id))


class _Hands(_Repo):
    def get(self, tournament_id: str, table_id: str, hand_number: int) -> HandRecord:
        found = self._s._get(("hand", tournament_id, table_id, hand_number))
        if found is None:
            raise NotFound(f"no finished hand {hand_number} at table {table_id}")
        return found  # type: ignore[no-any-return]


class _Accounts(_Repo):
    def get(self, player_id: str) -> AccountRecord | None:
        found: AccountRecord | None = self._s._get(("account", player_id))
        return found


class _Compensation(_Repo):
    def batch(self, tournament_id: str, index: int) -> CompensationBatch | None:
        found: CompensationBatch | None = self._s._get(("compensation", tournament_id, index))
        return found


class _Names(_Repo):
    def get(self, key: str) -> NameRecord | None:
        found: NameRecord | None = self._s._get(("name", key))
        return found


class _LedgerReader(_Repo):
    def balance(self, account: Account) -> int:
        with self._s._lock:
            return self._s._ledger.balance(account)

    def entries(self, account: Account) -> Sequence[Entry]:
        with self._s._lock:
            return self._s._ledger.entries(account=account)

    def entry(self, key: str) -> Entry | None:
        with self._s._lock:
            return self._s._ledger.entry(key)


# -- outgoing messages ------------------------------------------------------------


@dataclass
class Delivery:
    """One message delivered to one connection."""

    connection: str
    player: str | None
    message: Mapping[str, Any]


class MemoryPushes:
    """WebSocket connections in memory: connect, subscribe, and every message each connection received."""

    def __init__(self) -> None:
        self._players: dict[str, str | None] = {}
        self._subscriptions: dict[tuple[str, str], set[str]] = {}
        self.deliveries: list[Delivery] = []
        self.table_pushes: list[tuple[str, str, Mapping[str, Any], Mapping[str, Mapping[str, Any]]]] = []

    def connect(self, connection: str, player: str | None = None) -> None:
        self._players[connection] = player

    def subscribe(self, connection: str, tournament_id: str, table_id: str) -> None:
        self._subscriptions.setdefault((tournament_id, table_id), set()).add(connection)

    def received(self, connection: str) -> list[Mapping[str, Any]]:
        return [d.message for d in self.deliveries if d.connection == connection]

    def to_table(
        self, tournament_id: str, table_id: str, everyone: Mapping[str, Any], personal: Mapping[str, Mapping[str, Any]]
    ) -> None:
        self.table_pushes.append((tournament_id, table_id, everyone, personal))
        for connection in sorted(self._subscriptions.get((tournament_id, table_id), ())):
            player = self._players.get(connection)
            message = personal.get(player, everyone) if player is not None else everyone
            self.deliveries.append(Delivery(connection, player, copy.deepcopy(dict(message))))

    def to_table_views(
        self, tournament_id: str, table_id: str, view: Callable[[str | None], Mapping[str, Any]]
    ) -> None:
        views: dict[str | None, Mapping[str, Any]] = {}
        for connection in sorted(self._subscriptions.get((tournament_id, table_id), ())):
            player = self._players.get(connection)
            if player not in views:
                views[player] = view(player)
            self.deliveries.append(Delivery(connection, player, copy.deepcopy(dict(views[player]))))

    def to_player(self, player_id: str, message: Mapping[str, Any]) -> None:
        for connection, player in sorted(self._players.items()):
            if player == player_id:
                self.deliveries.append(Delivery(connection, player, copy.deepcopy(dict(message))))

    def many(self, pushes: Sequence[Push]) -> None:
        """Each push in its turn (nothing here waits on a network)."""
        for push in pushes:
            if isinstance(push, TablePush):
                self.to_table_views(push.tournament_id, push.table_id, push.view)
            else:
                self.to_player(push.player_id, push.message)


@dataclass(order=True)
class _Armed:
    due: datetime
    order: int
    message: TimeoutDue | RebuyDue = field(compare=False)


class MemoryTimers:
    """Delayed messages: ``due(now)`` hands back (and forgets) those whose delay has passed, in order."""

    def __init__(self, clock: FrozenClock) -> None:
        self._clock = clock
        self._armed: list[_Armed] = []
        self._order = 0

    def arm(self, message: TimeoutDue | RebuyDue, delay_seconds: int) -> None:
        if delay_seconds < 0:
            raise ValueError("a delay is not negative")
        self._order += 1
        self._armed.append(_Armed(self._clock.now() + timedelta(seconds=delay_seconds), self._order, message))

    def arm_many(self, armed: Sequence[tuple[TimeoutDue | RebuyDue, int]]) -> None:
        for message, delay_seconds in armed:
            self.arm(message, delay_seconds)

    def follow(self, settled: TablesSettled) -> bool:
        """No queue between: the coordinator pushes and arms at once."""
        return False

    @property
    def armed(self) -> list[TimeoutDue | RebuyDue]:
        return [a.message for a in sorted(self._armed)]

    def next_due(self) -> datetime | None:
        return min((a.due for a in self._armed), default=None)

    def due(self, now: datetime) -> list[TimeoutDue | RebuyDue]:
        ready = sorted(a for a in self._armed if a.due <= now)
        self._armed = [a for a in self._armed if a.due > now]
        return [a.message for a in ready]

    def clear(self) -> None:
        self._armed.clear()


class MemoryCoordination:
    """The coordinator's FIFO queue: messages in order (one group per tournament, kept in one deque)."""

    def __init__(self) -> None:
        self.queue: deque[HandEnded | RebuyClosed] = deque()
        self.sent: list[HandEnded | RebuyClosed] = []

    def hand_ended(self, message: HandEnded) -> None:
        self.queue.append(message)
        self.sent.append(message)

    def rebuy_closed(self, message: RebuyClosed) -> None:
        self.queue.append(message)
        self.sent.append(message)

    def take(self) -> HandEnded | RebuyClosed | None:
        return self.queue.popleft() if self.queue else None


class MemoryStartScheduler:
    def __init__(self) -> None:
        self.schedules: dict[str, datetime] = {}
        self.cancelled: list[str] = []

    def schedule(self, tournament_id: str, at: datetime) -> None:
        self.schedules[tournament_id] = at

    def cancel(self, tournament_id: str) -> None:
        if self.schedules.pop(tournament_id, None) is not None:
            self.cancelled.append(tournament_id)


class MemoryWorkflows:
    """Workflow executions by name: starting one twice for a tournament is a no-op, as with Step Functions."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.recovering: list[str] = []
        self.pending_starts: deque[str] = deque()
        self.pending_recoveries: deque[str] = deque()

    def start_tournament(self, tournament_id: str) -> None:
        if tournament_id not in self.started:
            self.started.append(tournament_id)
            self.pending_starts.append(tournament_id)

    def start_again(self, tournament_id: str) -> None:
        self.pending_starts.append(tournament_id)  # a new execution's name: never a no-op

    def recover(self, tournament_id: str) -> None:
        if tournament_id not in self.recovering:
            self.recovering.append(tournament_id)
            self.pending_recoveries.append(tournament_id)


@dataclass
class MemoryAdapters:
    clock: FrozenClock
    store: MemoryStore
    pushes: MemoryPushes
    timers: MemoryTimers
    coordination: MemoryCoordination
    start_scheduler: MemoryStartScheduler
    workflows: MemoryWorkflows

    @classmethod
    def create(cls, clock: FrozenClock | None = None, store: MemoryStore | None = None) -> MemoryAdapters:
        """Fresh in-memory adapters on one clock; ``store``: one to use in the memory store's place."""
        clock = clock or FrozenClock()
        return cls(
            clock=clock,
            store=MemoryStore() if store is None else store,
            pushes=MemoryPushes(),
            timers=MemoryTimers(clock),
            coordination=MemoryCoordination(),
            start_scheduler=MemoryStartScheduler(),
            workflows=MemoryWorkflows(),
        )
