"""The ports: what the services need from the outside world (ports and adapters: docs/architecture.md, 'Conventions').

Adapters implement them: ``adapters/memory.py`` in memory (tests, the
in-process simulation), ``adapters/dynamo/`` on DynamoDB, and the AWS
adapters for queues, schedules, workflows and pushes. Services see only
these Protocols. ``tests/support/contracts.py`` holds the contract tests that
every implementation of a storage port must pass.

Storage is read through one repository per aggregate and written through a
:class:`UnitOfWork`: it collects conditional writes and commits them all or
nothing (one ``TransactWriteItems`` on DynamoDB, at most 100 items):

* ``save(record)``: put the record, conditional on the stored version still
  being ``record.version`` (0: the item must not exist); the stored copy gets
  ``version + 1``. A failed condition raises ``StaleVersion`` at commit.
* ``check(record)``: the same condition, without writing (a
  ``ConditionCheck``).
* ``bump(shard, delta)``: an atomic add to a registration counter shard,
  conditional on ``0 <= count + delta <= cap`` and the shard not sealed
  (``StaleVersion`` otherwise). Concurrent bumps of one shard do not
  conflict with each other, as versions would.
* ``post(entries)``: ledger entries, each idempotent by its key (a key
  already stored with the same movement is skipped; with another movement:
  ``IdempotencyConflict``); no account that holds money may go below zero
  (``InsufficientFunds``). Balances change in lock-step with the entries.
  The adapter may spread a hot account's balance over shards (the pool and
  the house of a large tournament); ``LedgerReader.balance`` adds them up.

Errors raised by ``commit`` are the domain's (``StaleVersion``,
``InsufficientFunds``, ``IdempotencyConflict``); nothing is written when one
is raised. A unit of work is used once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from tourney.domain.ledger import Account, Entry
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue, TablesSettled, TimeoutDue
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


class Clock(Protocol):
    """The time now, timezone-aware UTC (injected: docs/architecture.md, 'Time is data')."""

    def now(self) -> datetime: ...


class Backoff(Protocol):
    """The wait after the ``lost``-th race a unit of work lost, before it tries again (``JitteredBackoff`` on AWS)."""

    def __call__(self, lost: int, /) -> None: ...


# -- storage -------------------------------------------------------------------


class UnitOfWork(Protocol):
    def save(self, record: Record) -> None: ...

    def check(self, record: Record) -> None: ...

    def bump(self, shard: CounterShard, delta: int) -> None: ...

    def post(self, entries: Iterable[Entry]) -> None: ...

    def commit(self) -> None: ...


class TournamentRepository(Protocol):
    def get(self, tournament_id: str) -> TournamentRecord:
        """The tournament (``NotFound`` if there is none)."""
        ...

    def list(self) -> Sequence[TournamentRecord]:
        """Every tournament, by ``start_at`` then id (Sit&Gos, without a start, last)."""
        ...


class RegistrationRepository(Protocol):
    def get(self, tournament_id: str, player_id: str) -> RegistrationRecord | None: ...

    def list(self, tournament_id: str, state: RegistrationState | None = None) -> Sequence[RegistrationRecord]:
        """The tournament's registrations (strongly consistent), optionally in one state, by player id."""
        ...

    def shards(self, tournament_id: str, count: int | None = None) -> Sequence[CounterShard]:
        """Every counter shard of the tournament, by shard number (strongly consistent).

        ``count``: how many there are (``TournamentRecord.registration_shards``), from a caller that read the
        tournament; without it the store looks the number up (one read more of the tournament's item).
        """
        ...

    def shard(self, tournament_id: str, number: int) -> CounterShard | None:
        """One counter shard (strongly consistent; None: the tournament has no such shard)."""
        ...

    def waiting_list(self, tournament_id: str) -> WaitingList:
        """The waiting list (an empty, unstored one with version 0 if none was saved)."""
        ...

    def plan(self, tournament_id: str, batch: int) -> SeatingPlan:
        """One batch of the start draw (``NotFound`` if none)."""
        ...


class TableRepository(Protocol):
    def get(self, tournament_id: str, table_id: str) -> TableRecord:
        """One strongly consistent read of the table (``NotFound`` if none)."""
        ...

    def get_many(self, tournament_id: str, table_ids: Collection[str]) -> dict[str, TableRecord]:
        """Strongly consistent reads of several tables at once (BatchGetItem), by id; those not found left out."""
        ...

    def list(self, tournament_id: str) -> Sequence[TableRecord]:
        """Every table of the tournament, closed ones included, by table id."""
        ...


class CoordinatorRepository(Protocol):
    def get(self, tournament_id: str) -> CoordinatorRecord | None: ...


class DealingRepository(Protocol):
    def get(self, tournament_id: str) -> DealingRecord | None: ...


class EntrantRepository(Protocol):
    def get(self, tournament_id: str, player_id: str) -> EntrantRecord | None: ...

    def get_many(self, tournament_id: str, player_ids: Collection[str]) -> dict[str, EntrantRecord]:
        """Strongly consistent reads of several entrants at once (BatchGetItem), by player; those not found left
        out."""
        ...

    def list(self, tournament_id: str) -> Sequence[EntrantRecord]:
        """Every entrant, by player id."""
        ...


class HandRepository(Protocol):
    def get(self, tournament_id: str, table_id: str, hand_number: int) -> HandRecord:
        """A finished hand's history (``NotFound`` if none)."""
        ...


class AuditRepository(Protocol):
    """The operators' acts (docs/rules.md, rule 19): written only through a unit of work, once each, never changed."""

    def get(self, audit_id: str, tournament_id: str | None, player_id: str | None) -> AuditRecord | None: ...

    def for_tournament(self, tournament_id: str) -> Sequence[AuditRecord]:
        """Every act about the tournament, oldest first (then by id)."""
        ...

    def for_player(self, player_id: str) -> Sequence[AuditRecord]:
        """Every act about the player, in any tournament or none, oldest first (then by id)."""
        ...

    def latest(self, limit: int) -> Sequence[AuditRecord]:
        """The ``limit`` newest acts, about anything, newest first (then by id, descending)."""
        ...


class MuteRepository(Protocol):
    def get(self, player_id: str) -> MuteRecord | None:
        """The player's last mute or unmute (None: never muted)."""
        ...


class AccountRepository(Protocol):
    def get(self, player_id: str) -> AccountRecord | None:
        """The player's account record (None: they never signed in)."""
        ...


class CompensationRepository(Protocol):
    def batch(self, tournament_id: str, index: int) -> CompensationBatch | None:
        """A batch of the tournament's frozen compensation plan (None: not written)."""
        ...


class NameRepository(Protocol):
    def get(self, key: str) -> NameRecord | None:
        """The claim of a display name by its ``profile.name_key`` (None: never claimed)."""
        ...


class LedgerReader(Protocol):
    def balance(self, account: Account) -> int: ...

    def entries(self, account: Account) -> Sequence[Entry]:
        """Entries touching ``account``, oldest first."""
        ...

    def entry(self, key: str) -> Entry | None: ...


class Store(Protocol):
    """Every repository, and units of work over them."""

    @property
    def tournaments(self) -> TournamentRepository: ...

    @property
    def registrations(self) -> RegistrationRepository: ...

    @property
    def tables(self) -> TableRepository: ...

    @property
    def coordinators(self) -> CoordinatorRepository: ...

    @property
    def dealing(self) -> DealingRepository: ...

    @property
    def entrants(self) -> EntrantRepository: ...

    @property
    def hands(self) -> HandRepository: ...

    @property
    def ledger(self) -> LedgerReader: ...

    @property
    def audit(self) -> AuditRepository: ...

    @property
    def mutes(self) -> MuteRepository: ...

    @property
    def accounts(self) -> AccountRepository: ...

    @property
    def names(self) -> NameRepository: ...

    @property
    def compensation(self) -> CompensationRepository: ...

    def unit_of_work(self) -> UnitOfWork: ...


# -- messages out ------------------------------------------------------------------


@dataclass(frozen=True)
class TablePush:
    """A push to every connection subscribed to a table: each receives ``view(its player)`` (None: an observer)."""

    tournament_id: str
    table_id: str
    view: Callable[[str | None], Mapping[str, Any]]


@dataclass(frozen=True)
class PlayerPush:
    """A push of ``message`` to every connection of one player."""

    player_id: str
    message: Mapping[str, Any]


Push = TablePush | PlayerPush


class Pushes(Protocol):
    """Messages to WebSocket connections. The service decides what each recipient may see.

    ``to_table``: every connection subscribed to the table receives
    ``personal[player]`` if its player has an entry there, else ``everyone``
    (observers and the other players: never a hole card before it is shown).
    ``to_player``: every connection of that player. ``many``: several pushes
    at once.
    """

    def to_table(
        self, tournament_id: str, table_id: str, everyone: Mapping[str, Any], personal: Mapping[str, Mapping[str, Any]]
    ) -> None: ...

    def to_table_views(
        self, tournament_id: str, table_id: str, view: Callable[[str | None], Mapping[str, Any]]
    ) -> None:
        """Every connection subscribed to the table receives ``view(its player)`` (None: an observer).

        ``view`` is called only for the viewers that are connected, once each: a
        table nobody watches costs nothing (the in-process simulation has no
        connection at all).
        """
        ...

    def to_player(self, player_id: str, message: Mapping[str, Any]) -> None: ...

    def many(self, pushes: Sequence[Push]) -> None:
        """Each push as ``to_table_views`` or ``to_player`` makes it; the adapter may make them concurrently.

        Every push is attempted; the first failure is raised once all ended.
        """
        ...


class PushesByRound:
    """A ``Pushes`` that sends every push as a round (``many``): one push is a round of one."""

    def many(self, pushes: Sequence[Push]) -> None:
        raise NotImplementedError

    def to_table(
        self, tournament_id: str, table_id: str, everyone: Mapping[str, Any], personal: Mapping[str, Mapping[str, Any]]
    ) -> None:
        self.many(
            [TablePush(tournament_id, table_id, lambda player: personal.get(player, everyone) if player else everyone)]
        )

    def to_table_views(
        self, tournament_id: str, table_id: str, view: Callable[[str | None], Mapping[str, Any]]
    ) -> None:
        self.many([TablePush(tournament_id, table_id, view)])

    def to_player(self, player_id: str, message: Mapping[str, Any]) -> None:
        self.many([PlayerPush(player_id, message)])


class TimeoutScheduler(Protocol):
    """Delayed messages (SQS with a per-message delay): decision time-outs and rebuy windows (rule 16)."""

    def arm(self, message: TimeoutDue | RebuyDue, delay_seconds: int) -> None: ...

    def arm_many(self, armed: Sequence[tuple[TimeoutDue | RebuyDue, int]]) -> None:
        """Each message with its delay, sent together (SQS: ten to a request)."""
        ...

    def follow(self, settled: TablesSettled) -> bool:
        """Queue what the coordinator committed, for the time-outs function to push and arm (True); False: this
        adapter has no queue between (memory), and the caller follows it at once."""
        ...


class CoordinatorQueue(Protocol):
    """One ordered stream per tournament (SQS FIFO, group = tournament id)."""

    def hand_ended(self, message: HandEnded) -> None: ...

    def rebuy_closed(self, message: RebuyClosed) -> None: ...


class StartScheduler(Protocol):
    """One schedule per tournament at its start time (EventBridge Scheduler)."""

    def schedule(self, tournament_id: str, at: datetime) -> None: ...

    def cancel(self, tournament_id: str) -> None: ...


class Workflows(Protocol):
    """The Step Functions workflows; starting one twice for a tournament is a no-op (execution name)."""

    def start_tournament(self, tournament_id: str) -> None: ...

    def start_again(self, tournament_id: str) -> None:
        """A new execution of the start workflow, under a name of its own (the watchdog: the first one failed)."""
        ...

    def recover(self, tournament_id: str) -> None: ...


__all__ = [
    "AuditRepository",
    "Backoff",
    "Clock",
    "CoordinatorQueue",
    "CoordinatorRepository",
    "DealingRepository",
    "EntrantRepository",
    "HandRepository",
    "LedgerReader",
    "MuteRepository",
    "PlayerPush",
    "Push",
    "Pushes",
    "PushesByRound",
    "RegistrationRepository",
    "StartScheduler",
    "Store",
    "TablePush",
    "TableRepository",
    "TimeoutScheduler",
    "TournamentRepository",
    "UnitOfWork",
    "Workflows",
]
