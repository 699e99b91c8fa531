"""What the services store: one frozen record per stored item, each with the version it was read at.

The ports (``ports.py``) load and save these; an adapter maps each to its
stored shape (``docs/data-model.md``). ``version`` is the version the record
was read at (0: not stored yet). Saving a record through a unit of work is
conditional on the stored version still being ``version``; the stored copy
then has ``version + 1``. Records hold domain objects (``Table``,
``TournamentState``, ``Contribution``), never storage types.

Which record is written by whom (no item is written by every player of a
large tournament on the play path):

==================  ====================================================  ==========================
record              one per                                               written by
==================  ====================================================  ==========================
TournamentRecord    tournament                                            admin, start, recovery
RegistrationRecord  tournament and player                                 registration, start
CounterShard        tournament and shard (registered count, capped)       registration (atomic add)
WaitingList         tournament (at most 10 players)                       registration, start
SeatingPlan         tournament and batch of tables (the start draw)       start
TableRecord         table                                                 play, coordinator, start
CoordinatorRecord   tournament (scalars and the balancing state)          coordinator, start, recovery
DealingRecord       tournament (when tables deal on their own, < 1 KB)    coordinator, start, recovery
EntrantRecord       tournament and entrant (paid, table, place, prize)    start, play (purchases), coordinator
HandRecord          finished hand                                         coordinator, play (a table's own deal)
AuditRecord         operator act (append-only: saved once, never again)   admin, management
MuteRecord          player muted in chat (or unmuted)                     management
AccountRecord       player account opened (first sign-in), display name  accounts
NameRecord          display name claimed (unique regardless of case)     accounts
CompensationBatch   tournament and batch of a frozen compensation plan   recovery
==================  ====================================================  ==========================
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from tourney.domain.between_hands import BetweenHands
from tourney.domain.dealing import DealingOrders
from tourney.domain.life import TournamentLife
from tourney.domain.prizes import Placing
from tourney.domain.recovery import Movement
from tourney.domain.registration import RegistrationState, RegistrationWindow, TournamentStatus
from tourney.domain.seating import TableSeating
from tourney.domain.structure import TournamentConfig
from tourney.domain.table import Table
from tourney.domain.tournament import Contribution, TournamentState


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as announced: its configuration and where it stands (registration, play, end).

    Where it stands is its ``life`` (``domain/life.py``): the status and the instants and names its moves
    stamped (``closed_at`` ... ``cancel_reason``). A service asks the life and saves ``lived(moved)``.
    """

    tournament_id: str
    name: str
    config: TournamentConfig
    status: TournamentStatus
    announce_at: datetime
    start_at: datetime | None
    created_at: datetime
    created_by: str = ""
    registration_shards: int = 1
    """How many ``CounterShard`` items count the field (their caps add up to ``max_players``)."""
    house_shards: int = 1
    """House revenue shards of the ledger (``ledger.house_shard``)."""
    closed_at: datetime | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None
    terminated_at: datetime | None = None
    termination_reason: str = ""
    terminated_by: str = ""
    restarted_at: datetime | None = None
    restarted_by: str = ""
    restart_reason: str = ""
    workflow_seen_at: datetime | None = None
    """The last sign of life of the workflow in charge: a recovery step for the current termination, or the
    watchdog's last request of the start workflow again for a start that failed (each re-requested when quiet)."""
    cancelled_by: str = ""
    cancel_reason: str = ""
    tables_at_start: int = 0
    batches: int = 0
    players_at_start: int = 0
    version: int = 0

    @property
    def life(self) -> TournamentLife:
        """Its status and what the moves between statuses stamped: the domain decides every move."""
        return TournamentLife(**{name: getattr(self, name) for name in _LIFE})

    def lived(self, life: TournamentLife) -> TournamentRecord:
        """This tournament after a move of its ``life``: the status and what the move stamped."""
        return replace(self, **{name: getattr(life, name) for name in _LIFE})

    @property
    def window(self) -> RegistrationWindow:
        """When its players may register and unregister (docs/rules.md, rule 2)."""
        return RegistrationWindow(self.tournament_id, self.status, self.announce_at, self.start_at)

    def status_at(self, now: datetime) -> TournamentStatus:
        """``scheduled`` before the announcement, else the stored status."""
        return self.window.status_at(now)


_LIFE = tuple(f.name for f in fields(TournamentLife))


@dataclass(frozen=True)
class RegistrationRecord:
    """One player's registration in one tournament (docs/rules.md, rules 2-4).

    ``number`` counts the player's registrations here (it numbers the ledger
    keys ``register:<t>:<player>:<n>`` and ``refund:<t>:<player>:<n>``).
    ``shard``: the counter shard that counts this registered player (None on
    the waiting list). ``key``: the client's idempotency key of the last
    registration.
    """

    tournament_id: str
    player_id: str
    state: RegistrationState
    number: int
    registered_at: datetime
    shard: int | None = None
    key: str = ""
    version: int = 0


@dataclass(frozen=True)
class CounterShard:
    """One shard of the registered count: ``count`` never above ``cap``; ``sealed`` once registration closed.

    Changed only by ``UnitOfWork.bump`` (an atomic add, conditional on
    ``0 <= count + delta <= cap`` and not sealed) or, to seal it, by ``save``.
    Every change adds one to ``version``.
    """

    tournament_id: str
    shard: int
    cap: int
    count: int = 0
    sealed: bool = False
    version: int = 0

    @property
    def full(self) -> bool:
        return self.count >= self.cap


@dataclass(frozen=True)
class WaitingList:
    """The players waiting beyond ``max_players``, in order (at most 10; docs/rules.md, rule 3)."""

    tournament_id: str
    players: tuple[str, ...] = ()
    sealed: bool = False
    version: int = 0


@dataclass(frozen=True)
class SeatingPlan:
    """One batch of the start draw: the tables and seats drawn (docs/rules.md, rule 5), written before any table."""

    tournament_id: str
    batch: int
    tables: tuple[TableSeating, ...]
    version: int = 0


@dataclass(frozen=True)
class TableRecord:
    """One poker table with the hand in progress (``Table``), versioned: the play path's only item.

    ``level``: the blind level of the hand in progress or last dealt.
    ``dealt_at``: when it was dealt. ``updated_at``: the last change (the
    watchdog's measure of progress). ``coordinated_hand``: the last hand
    whose end the coordinator processed (duplicates are no-ops).
    ``rebuy_pending``: players held at the table with no chips while their
    rebuy window runs (docs/rules.md, Rebuys). ``pending_chips``: chips bought
    (rebuy, add-on) during a hand the buyer is dealt in, added when it ends.
    ``closed``: broken, or the tournament is over. ``halted``: the tournament
    was terminated; nothing is dealt and no action is accepted here until a
    restart clears it (docs/rules.md, rule 17; set by ``cancel_hands`` in the same
    write that cancels the hand in progress). ``decision_seconds`` and
    ``away_seconds``: the tournament's decision times (docs/rules.md, rule 16), kept
    here so an action needs no other item than its table.
    """

    tournament_id: str
    table_id: str
    table: Table
    level: int = 1
    dealt_at: datetime | None = None
    updated_at: datetime | None = None
    coordinated_hand: int = 0
    rebuy_pending: tuple[str, ...] = ()
    pending_chips: tuple[tuple[str, int], ...] = ()
    closed: bool = False
    halted: bool = False
    decision_seconds: int = 15
    away_seconds: int = 5
    disqualified: tuple[str, ...] = ()
    """Players disqualified while seated here: their chips leave play when the hand ends (docs/rules.md, rule 19)."""
    hand_for_hand: bool = False
    """Hand-for-hand holds the table: its hand was dealt in a round, or it waits for one (``hand_for_hand.py``)."""
    version: int = 0

    @property
    def between_hands(self) -> BetweenHands:
        """What waits for the hand's end (``domain/between_hands.py``): chips bought, rebuy windows, disqualified."""
        return BetweenHands(self.pending_chips, self.rebuy_pending, self.disqualified)

    def holding(self, between: BetweenHands, **changes: Any) -> TableRecord:
        """This record holding ``between`` (and ``changes``)."""
        return evolve(
            self,
            pending_chips=between.pending_chips,
            rebuy_pending=between.rebuy_pending,
            disqualified=between.disqualified,
            **changes,
        )


@dataclass(frozen=True)
class CoordinatorRecord:
    """The coordinator's state of one running tournament: bounded (scalars and the balancing state)."""

    tournament_id: str
    state: TournamentState
    version: int = 0


@dataclass(frozen=True)
class DealingRecord:
    """The dealing orders the coordination published for one tournament's tables (``domain/dealing.py``).

    Read at every hand end (small: the blind structure and a few scalars),
    written only when a decision changes them.
    """

    tournament_id: str
    orders: DealingOrders
    version: int = 0


@dataclass(frozen=True)
class EntrantRecord:
    """One entrant of a started tournament: what they paid, where they sit, their place and prize."""

    tournament_id: str
    player_id: str
    contribution: Contribution
    table_id: str | None = None
    placing: Placing | None = None
    placed_at: datetime | None = None
    chips_adjusted: int = 0
    """Chips operators added (or removed, negative) by stack adjustments (docs/rules.md, rule 19)."""
    disqualified_at: datetime | None = None
    chips_removed: int = 0
    """The chips a disqualification took out of play (docs/rules.md, rule 19)."""
    version: int = 0

    @property
    def eliminated(self) -> bool:
        return self.disqualified_at is not None or (self.placing is not None and self.placing.place > 1)


@dataclass(frozen=True)
class HandRecord:
    """A finished hand's history: the hand itself (``Hand.to_dict``) and what its texts need beside it."""

    tournament_id: str
    table_id: str
    hand_number: int
    hand: dict[str, object]
    players: dict[int, str]
    seat_count: int
    level: int
    dealt_at: datetime
    ended_at: datetime
    version: int = 0
    button_draw: tuple[tuple[int, str, str], ...] = ()
    """``(seat, player, card)`` of the table's draw for the button when this hand was the first dealt from it
    (docs/rules.md, rules 6 and 12); empty for every other hand. A seat left before the hand ended names ``""``."""


class AuditAct(StrEnum):
    """The operator acts that are audited (docs/rules.md, rule 19)."""

    CREATE = "create"
    CANCEL = "cancel"
    TERMINATE = "terminate"
    RESTART = "restart"
    STACK_ADJUSTMENT = "stack_adjustment"
    BALANCE_ADJUSTMENT = "balance_adjustment"
    DEPOSIT = "deposit"
    DISQUALIFY = "disqualify"
    MUTE = "mute"
    UNMUTE = "unmute"


@dataclass(frozen=True)
class AuditRecord:
    """One operator act: who, when, why, and the state before and after (docs/rules.md, rule 19).

    Append-only: saved once with version 0 (the item must not exist), never
    saved again; ``audit_id`` is derived from the act itself, so a redelivered
    act finds its record stored and writes nothing twice. ``before`` and
    ``after`` are plain JSON data (ints, strings, lists, string-keyed maps).
    """

    audit_id: str
    at: datetime
    operator: str
    act: AuditAct
    reason: str
    tournament_id: str | None = None
    player_id: str | None = None
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    version: int = 0


@dataclass(frozen=True)
class MuteRecord:
    """A player's chat mute (docs/rules.md, rule 18): muted until ``until`` (None: until unmuted), or unmuted."""

    player_id: str
    muted: bool
    at: datetime
    by: str
    reason: str
    until: datetime | None = None
    version: int = 0

    @property
    def tournament_id(self) -> None:
        """A mute is about a player in every tournament: it belongs to none (observers of saves read this)."""
        return None

    def muted_at(self, now: datetime) -> bool:
        """Whether the player is muted at ``now`` (the chat reads this)."""
        return self.muted and (self.until is None or now < self.until)


R = TypeVar("R", bound="Record")


def evolve(record: R, **changes: Any) -> R:
    """``dataclasses.replace(record, **changes)`` without its per-call introspection (the play path's hot spot).

    Records have no ``__post_init__``, so copying the fields and changing some is all ``replace`` does.
    A name that is not a field would add a key to the copy's fields, which is how it is caught.
    """
    fields = record.__dict__.copy()
    fields.update(changes)
    if len(fields) != len(record.__dict__):
        raise TypeError(f"{type(record).__name__} has no field {sorted(fields.keys() - record.__dict__.keys())}")
    changed = object.__new__(type(record))
    object.__setattr__(changed, "__dict__", fields)
    return changed


@dataclass(frozen=True)
class AccountRecord:
    """A player's account, opened when they first signed in (``GET /me/account``): operators credit only
    accounts that exist (docs/rules.md, 'Conduct and management')."""

    player_id: str
    opened_at: datetime
    display_name: str | None = None
    """The name seats, standings, places and chat show (``PUT /me/profile``); None: the player id."""
    version: int = 0

    @property
    def tournament_id(self) -> None:
        """An account belongs to no tournament (observers of saves read this)."""
        return None


@dataclass(frozen=True)
class CompensationBatch:
    """A batch of a compensation plan, frozen by its first step: ``MOVEMENTS_PER_BATCH`` movements from the
    ``index``-th on (docs/rules.md, rule 17.3). Written once; each later step reads only the batch it posts."""

    tournament_id: str
    index: int
    movements: tuple[Movement, ...]
    version: int = 0


@dataclass(frozen=True)
class NameRecord:
    """A display name's claim, by ``profile.name_key``: ``holder`` is the player it names (None: given up)."""

    key: str
    holder: str | None
    version: int = 0

    @property
    def tournament_id(self) -> None:
        """A name belongs to no tournament (observers of saves read this)."""
        return None


Record = (
    TournamentRecord
    | RegistrationRecord
    | CounterShard
    | WaitingList
    | SeatingPlan
    | TableRecord
    | CoordinatorRecord
    | DealingRecord
    | EntrantRecord
    | HandRecord
    | AuditRecord
    | MuteRecord
    | AccountRecord
    | NameRecord
    | CompensationBatch
)
"""Every record a unit of work saves."""

__all__ = [
    "AccountRecord",
    "AuditAct",
    "AuditRecord",
    "CompensationBatch",
    "CoordinatorRecord",
    "CounterShard",
    "DealingRecord",
    "EntrantRecord",
    "HandRecord",
    "MuteRecord",
    "NameRecord",
    "Record",
    "RegistrationRecord",
    "RegistrationState",
    "SeatingPlan",
    "TableRecord",
    "TournamentRecord",
    "WaitingList",
    "evolve",
]
