"""Registration, the waiting list, the start and cancellation (docs/rules.md, rules 2, 3, 4, 17.6).

A :class:`RegistrationBook` is the registration side of one tournament:

* registration is open from the announce time until the start time (a Sit&Go
  has no start time: it starts the moment ``max_players`` have registered);
* beyond ``max_players`` up to 10 more go on the waiting list, in order, and
  pay like everyone else; the 11th extra is refused (a Sit&Go has no waiting
  list);
* unregistering before the start refunds buy-in and fee in full; a registered
  player leaving lets the first wait-listed player into the field;
* at the start, wait-listed players are refunded in full; with fewer than
  ``min_players`` the tournament is cancelled and everyone is refunded in full
  (so is every player when an operator, or rule 17.6's crash before the start,
  cancels it).

Every operation checks first, then posts its ledger entries as one atomic
batch, then changes the book: when anything fails (closed, already
registered, short balance) nothing moves and the book is unchanged. Entry
keys are deterministic, so replaying an operation's entries never moves money
twice: ``register:<tournament>:<player>:<n>:...`` for a player's ``n``-th
registration and ``refund:<tournament>:<player>:<n>`` for its refund (one key
whatever the reason, so a registration is refunded at most once). The time
(``now``) is always given by the caller.

>>> from datetime import UTC, datetime, timedelta
>>> from tourney.domain.ledger import Ledger, deposit
>>> from tourney.domain.structure import TournamentConfig, TournamentFormat
>>> t0 = datetime(2025, 1, 1, tzinfo=UTC)
>>> config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=2)
>>> book = RegistrationBook("t1", config, announce_at=t0, start_at=t0 + timedelta(hours=1))
>>> ledger = Ledger()
>>> for p in ("ann", "bob", "cy"):
...     _ = ledger.post(deposit(f"d-{p}", p, 1_100, t0))
...     print(book.register(p, t0, ledger).status)
registered
registered
waitlisted
>>> book.start(t0 + timedelta(hours=1), ledger).refunded
('cy',)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tourney.domain.errors import (
    AlreadyRegistered,
    AlreadyStarted,
    Conflict,
    NotRegistered,
    NotStartedYet,
    RegistrationClosed,
    WaitingListFull,
)
from tourney.domain.fees import Purchase, Split, purchase_entries, refund_entry, split_payment
from tourney.domain.ledger import Entry, LedgerPort
from tourney.domain.structure import TournamentConfig, TournamentFormat


class TournamentStatus(StrEnum):
    SCHEDULED = "scheduled"
    """Created, not yet announced: not visible, registration not open."""
    REGISTERING = "registering"
    """Announced: registration open until the start (docs/rules.md, rule 2)."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    TERMINATED = "terminated"


class RegistrationStatus(StrEnum):
    REGISTERED = "registered"
    WAITLISTED = "waitlisted"
    NOT_REGISTERED = "not_registered"


@dataclass(frozen=True)
class PlayerRegistration:
    """A player's standing: ``position`` is 1-based on the waiting list, else ``None``."""

    status: RegistrationStatus
    position: int | None = None


@dataclass(frozen=True)
class Registered:
    """The record of a registration; ``started`` when it filled a Sit&Go."""

    player_id: str
    status: RegistrationStatus
    position: int | None
    paid: int
    entries: tuple[Entry, ...]
    started: bool = False


@dataclass(frozen=True)
class Unregistered:
    """The record of an unregistration: the refund and who moved up from the waiting list."""

    player_id: str
    refunded: int
    promoted: str | None
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Closing:
    """The record of a start or a cancellation: the field, who was refunded, the entries."""

    status: TournamentStatus
    players: tuple[str, ...]
    refunded: tuple[str, ...]
    entries: tuple[Entry, ...]


class RegistrationBook:
    """The registration side of one tournament (docs/rules.md, rules 2, 3, 4): a mutable aggregate.

    ``version`` goes up by one on every change, for optimistic locking in a store.
    Actions follow the verify / can / act triad.
    """

    def __init__(
        self,
        tournament_id: str,
        config: TournamentConfig,
        *,
        announce_at: datetime,
        start_at: datetime | None = None,
        house_shards: int = 1,
    ) -> None:
        if config.format is TournamentFormat.SNG:
            if start_at is not None:
                raise ValueError("a Sit&Go has no start time: it starts when full")
        elif start_at is None or start_at <= announce_at:
            raise ValueError("a scheduled tournament starts after its announcement")
        if house_shards < 1:
            raise ValueError("house_shards must be at least 1")
        self.tournament_id = tournament_id
        self.config = config
        self.announce_at = announce_at
        self.start_at = start_at
        self.house_shards = house_shards
        self.version = 0
        self._status = TournamentStatus.REGISTERING
        self._field: dict[str, None] = {}
        self._waiting: list[str] = []
        self._registrations: dict[str, int] = {}
        self._started_at: datetime | None = None

    # -- queries -------------------------------------------------------------

    @property
    def payment(self) -> Split:
        """What each registration costs and where it goes (docs/rules.md, Money)."""
        return split_payment(Purchase.BUY_IN, self.config.buy_in, self.config.entry_fee)

    @property
    def players(self) -> tuple[str, ...]:
        """The registered field, in order of registration (promotions at the end)."""
        return tuple(self._field)

    @property
    def waiting_list(self) -> tuple[str, ...]:
        return tuple(self._waiting)

    @property
    def registered_count(self) -> int:
        return len(self._field)

    @property
    def waitlisted_count(self) -> int:
        return len(self._waiting)

    @property
    def closed_at(self) -> datetime | None:
        """When registration closed by a start or a cancellation (a Sit&Go: when it filled)."""
        return self._started_at

    def status_at(self, now: datetime) -> TournamentStatus:
        if self._status is TournamentStatus.REGISTERING and now < self.announce_at:
            return TournamentStatus.SCHEDULED
        return self._status

    def is_open(self, now: datetime) -> bool:
        """Whether registering (and unregistering) is possible at ``now`` (docs/rules.md, rule 2)."""
        return (
            self._status is TournamentStatus.REGISTERING
            and self.announce_at <= now
            and (self.start_at is None or now < self.start_at)
        )

    def registration_of(self, player_id: str) -> PlayerRegistration:
        if player_id in self._field:
            return PlayerRegistration(RegistrationStatus.REGISTERED)
        if player_id in self._waiting:
            return PlayerRegistration(RegistrationStatus.WAITLISTED, self._waiting.index(player_id) + 1)
        return PlayerRegistration(RegistrationStatus.NOT_REGISTERED)

    def registrations_made(self, player_id: str) -> int:
        """How many times the player has registered here (numbers the entry keys)."""
        return self._registrations.get(player_id, 0)

    # -- register ------------------------------------------------------------

    def verify_register(self, player_id: str, now: datetime) -> None:
        """Raise why ``player_id`` cannot register at ``now`` (docs/rules.md, rules 2, 3; Money)."""
        self._verify_open(now)
        if player_id in self._field or player_id in self._waiting:
            raise AlreadyRegistered(f"{player_id} is already {self.registration_of(player_id).status}")
        if len(self._field) >= self.config.max_players and len(self._waiting) >= self.config.waiting_list_size:
            raise WaitingListFull(
                f"{self.tournament_id} is full: {self.config.max_players} registered "
                f"and {self.config.waiting_list_size} on the waiting list"
            )

    def can_register(self, player_id: str, now: datetime) -> bool:
        try:
            self.verify_register(player_id, now)
        except (RegistrationClosed, AlreadyRegistered, WaitingListFull):
            return False
        return True

    def register(self, player_id: str, now: datetime, ledger: LedgerPort) -> Registered:
        """Register, paying ``buy_in + entry_fee`` in one atomic step (docs/rules.md, rules 2, 3).

        Raises ``InsufficientFunds`` (from the ledger) when the wallet is short;
        then nothing moved.
        """
        self.verify_register(player_id, now)
        number = self.registrations_made(player_id) + 1
        entries = ledger.post_all(
            purchase_entries(
                f"register:{self.tournament_id}:{player_id}:{number}",
                Purchase.BUY_IN,
                self.tournament_id,
                player_id,
                self.config.buy_in,
                self.config.entry_fee,
                now,
                self.house_shards,
            )
        )
        self._registrations[player_id] = number
        started = False
        if len(self._field) < self.config.max_players:
            self._field[player_id] = None
            if self.config.format is TournamentFormat.SNG and len(self._field) == self.config.max_players:
                self._status, self._started_at, started = TournamentStatus.RUNNING, now, True
        else:
            self._waiting.append(player_id)
        self.version += 1
        standing = self.registration_of(player_id)
        return Registered(player_id, standing.status, standing.position, self.payment.paid, entries, started)

    # -- unregister ----------------------------------------------------------

    def verify_unregister(self, player_id: str, now: datetime) -> None:
        """Raise why ``player_id`` cannot unregister at ``now`` (docs/rules.md, rule 4)."""
        if player_id not in self._field and player_id not in self._waiting:
            raise NotRegistered(f"{player_id} is not registered in {self.tournament_id}")
        self._verify_open(now)

    def can_unregister(self, player_id: str, now: datetime) -> bool:
        try:
            self.verify_unregister(player_id, now)
        except (NotRegistered, RegistrationClosed):
            return False
        return True

    def unregister(self, player_id: str, now: datetime, ledger: LedgerPort) -> Unregistered:
        """Leave before the start with buy-in and fee refunded in full (docs/rules.md, rules 3, 4).

        A registered player's place goes to the first wait-listed player.
        """
        self.verify_unregister(player_id, now)
        entries = ledger.post_all(self._refunds((player_id,), now))
        promoted: str | None = None
        if player_id in self._field:
            del self._field[player_id]
            if self._waiting:
                promoted = self._waiting.pop(0)
                self._field[promoted] = None
        else:
            self._waiting.remove(player_id)
        self.version += 1
        return Unregistered(player_id, self.payment.paid, promoted, entries)

    # -- start and cancel ----------------------------------------------------

    def verify_start(self, now: datetime) -> None:
        """Raise why the tournament cannot start at ``now`` (docs/rules.md, rule 2)."""
        if self._status is not TournamentStatus.REGISTERING:
            return
        if self.start_at is None:
            raise NotStartedYet(
                f"a Sit&Go starts when {self.config.max_players} have registered ({len(self._field)} so far)"
            )
        if now < self.start_at:
            raise NotStartedYet(f"{self.tournament_id} starts at {self.start_at.isoformat()}")

    def start(self, now: datetime, ledger: LedgerPort) -> Closing:
        """Close registration at the start time (docs/rules.md, rules 2, 3).

        Wait-listed players are refunded in full. With fewer than
        ``min_players`` registered, the tournament is cancelled instead and
        everyone is refunded in full. Starting again is a no-op.
        """
        self.verify_start(now)
        if self._status is not TournamentStatus.REGISTERING:
            return Closing(self._status, self.players, (), ())
        if len(self._field) < self.config.min_players:
            return self._close(TournamentStatus.CANCELLED, now, ledger)
        return self._close(TournamentStatus.RUNNING, now, ledger)

    def cancel(self, now: datetime, ledger: LedgerPort) -> Closing:
        """Cancel before the start, refunding every registered and wait-listed player in full.

        For an operator's cancellation and for a tournament that should have
        started and did not (docs/rules.md, rule 17.6). Cancelling again is a no-op;
        a tournament already running is terminated instead (rule 17).
        """
        if self._status is TournamentStatus.CANCELLED:
            return Closing(self._status, self.players, (), ())
        if self._status is not TournamentStatus.REGISTERING:
            raise AlreadyStarted(f"{self.tournament_id} is {self._status}: terminate it instead")
        return self._close(TournamentStatus.CANCELLED, now, ledger)

    def end(self, status: TournamentStatus) -> None:
        """Record the end of a running tournament: finished, or terminated (rules 15, 17)."""
        if status not in (TournamentStatus.FINISHED, TournamentStatus.TERMINATED):
            raise ValueError(f"a tournament ends finished or terminated, not {status}")
        if self._status is status:
            return
        if self._status is TournamentStatus.REGISTERING:
            raise NotStartedYet(f"{self.tournament_id} has not started")
        if self._status is not TournamentStatus.RUNNING:
            raise Conflict(f"{self.tournament_id} is {self._status}, not running")
        self._status = status
        self.version += 1

    # -- internals -----------------------------------------------------------

    def _verify_open(self, now: datetime) -> None:
        if self._status is not TournamentStatus.REGISTERING:
            raise RegistrationClosed(f"registration for {self.tournament_id} is closed: it is {self._status}")
        if now < self.announce_at:
            raise RegistrationClosed(f"{self.tournament_id} is not announced yet")
        if self.start_at is not None and now >= self.start_at:
            raise RegistrationClosed(f"registration for {self.tournament_id} closed at its start")

    def _close(self, status: TournamentStatus, now: datetime, ledger: LedgerPort) -> Closing:
        leaving = tuple(self._waiting) if status is TournamentStatus.RUNNING else (*self._field, *self._waiting)
        entries = ledger.post_all(self._refunds(leaving, now))
        if status is TournamentStatus.CANCELLED:
            self._field.clear()
        self._waiting.clear()
        self._status, self._started_at = status, now
        self.version += 1
        return Closing(status, self.players, leaving, entries)

    def _refunds(self, player_ids: Sequence[str], now: datetime) -> list[Entry]:
        refunds = (
            refund_entry(
                f"refund:{self.tournament_id}:{player_id}:{self.registrations_made(player_id)}",
                Purchase.BUY_IN,
                self.tournament_id,
                player_id,
                self.config.buy_in,
                self.config.entry_fee,
                now,
                self.house_shards,
            )
            for player_id in player_ids
        )
        return [entry for entry in refunds if entry is not None]
