"""Registration and the waiting list (docs/rules.md, rules 2, 3, 4): what the tournament director decides.

* Registration is open from the announcement until the start; a Sit&Go has no
  start time and closes when it fills (:class:`RegistrationWindow`).
* A player enters once: one already in the field or on the waiting list is
  refused, and a request repeated with its idempotency key is answered as the
  first (:func:`is_repeated_request`).
* The field takes up to ``max_players``; beyond it up to 10 wait, in order,
  and the 11th extra is refused; a Sit&Go has no waiting list
  (:func:`place_in_field_or_waiting_list`).
* Registering pays ``buy_in + entry_fee``, buy-in to the pool and fee to the
  house (:func:`buy_in_payment`); unregistering before the start refunds it in
  full (:func:`buy_in_refund`). The keys are the registration's:
  ``register:<tournament>:<player>:<n>`` for a player's ``n``-th registration
  and ``refund:<tournament>:<player>:<n>`` for its refund, so a registration
  is paid and refunded at most once.
* A registered player leaving lets the first wait-listed player into the field
  (:func:`leave`).
* At the start, fewer than ``min_players`` cancel the tournament and refund
  everyone (:func:`too_few_to_start`); otherwise the waiting list is refunded.

These are pure: ``services/register.py`` and ``services/start.py`` read the
stored facts, ask them and write what they answer.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2025, 1, 1, tzinfo=UTC)
>>> window = RegistrationWindow("t1", TournamentStatus.REGISTERING, t0, t0 + timedelta(hours=1))
>>> window.is_open(t0), window.is_open(t0 + timedelta(hours=1))
(True, False)
>>> config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100, max_players=2)
>>> str(place_in_field_or_waiting_list("t1", config, field_has_room=False, waiting=0))
'waitlisted'
>>> leave("ann", RegistrationState.REGISTERED, ("cy", "dee")).moves_up
'cy'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tourney.domain.errors import (
    AlreadyRegistered,
    IdempotencyConflict,
    InvalidConfiguration,
    NotRegistered,
    RegistrationClosed,
    WaitingListFull,
)
from tourney.domain.fees import Purchase, PurchasePayment, split_payment
from tourney.domain.formats import TournamentFormat
from tourney.domain.ledger import Entry
from tourney.domain.structure import TournamentConfig


class TournamentStatus(StrEnum):
    SCHEDULED = "scheduled"
    """Created, not yet announced: not visible, registration not open."""
    REGISTERING = "registering"
    """Announced: registration open until the start (docs/rules.md, rule 2)."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    TERMINATED = "terminated"


class RegistrationState(StrEnum):
    REGISTERED = "registered"
    WAITLISTED = "waitlisted"
    UNREGISTERED = "unregistered"
    """Left before the start, refunded in full."""
    REFUNDED = "refunded"
    """Refunded by the start (waiting list), a cancellation or the sweeper."""


ENTERED = (RegistrationState.REGISTERED, RegistrationState.WAITLISTED)
"""A player in these states is in the tournament: in the field or on the waiting list."""


@dataclass(frozen=True)
class RegistrationWindow:
    """When players may register and unregister (docs/rules.md, rule 2).

    Open from ``announce_at`` while the tournament is registering, until
    ``start_at`` (the start instant itself is closed); a Sit&Go has no start
    time. ``sealed``, passed by the caller, is registration closed by the start
    (or a full Sit&Go) before the status says so.
    """

    tournament_id: str
    status: TournamentStatus
    announce_at: datetime
    start_at: datetime | None = None

    def status_at(self, now: datetime) -> TournamentStatus:
        """``scheduled`` before the announcement (not visible), else the status."""
        if self.status is TournamentStatus.REGISTERING and now < self.announce_at:
            return TournamentStatus.SCHEDULED
        return self.status

    def is_open(self, now: datetime) -> bool:
        return (
            self.status is TournamentStatus.REGISTERING
            and self.announce_at <= now
            and (self.start_at is None or now < self.start_at)
        )

    def check_can_register(self, now: datetime, *, sealed: bool = False) -> None:
        """Raise ``RegistrationClosed`` unless a registration may be made at ``now``."""
        if not self.is_open(now):
            raise RegistrationClosed(f"registration for {self.tournament_id} is not open")
        if sealed:
            raise RegistrationClosed(f"registration for {self.tournament_id} closed at its start")

    def check_can_unregister(
        self, player_id: str, state: RegistrationState | None, now: datetime, *, sealed: bool = False
    ) -> None:
        """Raise why ``player_id``, in ``state`` (None: never registered), cannot leave at ``now`` (rule 4)."""
        if state not in ENTERED:
            raise NotRegistered(f"{player_id} is not registered in {self.tournament_id}")
        if sealed or not self.is_open(now):
            raise RegistrationClosed(f"{self.tournament_id} has started: unregistering is closed")


def check_schedule(config: TournamentConfig, announce_at: datetime, start_at: datetime | None) -> None:
    """A Sit&Go has no start time (it starts when full); any other tournament starts after its announcement."""
    if config.format is TournamentFormat.SNG:
        if start_at is not None:
            raise InvalidConfiguration("a Sit&Go has no start time: it starts when full")
    elif start_at is None or start_at <= announce_at:
        raise InvalidConfiguration("a scheduled tournament needs a start time after its announcement")


def is_repeated_request(
    tournament_id: str, player_id: str, key: str, state: RegistrationState | None, previous_key: str
) -> bool:
    """Whether a registration request with ``key`` repeats the player's registration in ``state`` (answer it again).

    ``state`` and ``previous_key`` are the player's last registration here
    (``state`` None: none). A player in the field or on the waiting list
    cannot register again (``AlreadyRegistered``) unless the request repeats
    that registration's key. Once that registration was withdrawn (unregistered,
    refunded) its key is spent: ``IdempotencyConflict``; a new registration
    takes a new key.
    """
    same_key = bool(key) and previous_key == key
    if state in ENTERED:
        if same_key:
            return True
        raise AlreadyRegistered(f"{player_id} is already {state} in {tournament_id}")
    if state is not None and same_key:
        raise IdempotencyConflict(f"the key of {player_id}'s {state} registration in {tournament_id} names that one")
    return False


def place_in_field_or_waiting_list(
    tournament_id: str, config: TournamentConfig, *, field_has_room: bool, waiting: int
) -> RegistrationState:
    """In the field while it has room, else on the waiting list behind ``waiting`` players (rule 3).

    The waiting list holds ``config.waiting_list_size`` (10; a Sit&Go none):
    beyond it, ``WaitingListFull``.
    """
    if field_has_room:
        return RegistrationState.REGISTERED
    if waiting >= config.waiting_list_size:
        raise WaitingListFull(
            f"{tournament_id} is full: {config.max_players} registered and {config.waiting_list_size} waiting"
        )
    return RegistrationState.WAITLISTED


def waiting_position(waiting_list: tuple[str, ...], player_id: str) -> int | None:
    """The player's place on the waiting list, from 1; None when not on it."""
    return waiting_list.index(player_id) + 1 if player_id in waiting_list else None


def entry_price(config: TournamentConfig) -> int:
    """What a registration costs the player: buy-in plus entry fee (docs/rules.md, Money)."""
    return split_payment(Purchase.BUY_IN, config.buy_in, config.entry_fee).paid


def buy_in_payment(
    tournament_id: str, player_id: str, number: int, config: TournamentConfig, at: datetime, house_shards: int = 1
) -> tuple[Entry, ...]:
    """The ledger entries of the player's ``number``-th registration, posted together (rule 2; Money)."""
    payment = PurchasePayment(Purchase.BUY_IN, tournament_id, player_id, config.buy_in, config.entry_fee, house_shards)
    return payment.entries(f"register:{tournament_id}:{player_id}:{number}", at)


def buy_in_refund(
    tournament_id: str, player_id: str, number: int, config: TournamentConfig, at: datetime, house_shards: int = 1
) -> Entry | None:
    """The full refund of the player's ``number``-th registration, fee included (rules 3, 4); None for a freeroll."""
    payment = PurchasePayment(Purchase.BUY_IN, tournament_id, player_id, config.buy_in, config.entry_fee, house_shards)
    return payment.refund(f"refund:{tournament_id}:{player_id}:{number}", at)


@dataclass(frozen=True)
class Departure:
    """A player's leaving before the start: the waiting list after it, who moves up into the field, and whether
    the field is one player short (a registered player left with nobody waiting)."""

    waiting_list: tuple[str, ...]
    moves_up: str | None = None
    seat_left_empty: bool = False


def leave(player_id: str, state: RegistrationState, waiting_list: tuple[str, ...]) -> Departure:
    """The player in ``state`` leaves (rule 4): a registered player's place goes to the first wait-listed one."""
    if state is RegistrationState.WAITLISTED:
        return Departure(tuple(p for p in waiting_list if p != player_id))
    if waiting_list:
        return Departure(waiting_list[1:], waiting_list[0])
    return Departure(waiting_list, seat_left_empty=True)


def starts_when_full(config: TournamentConfig) -> bool:
    """A Sit&Go has no start time: the registration that fills its field starts it (rule 2)."""
    return config.format is TournamentFormat.SNG


def field_is_full(config: TournamentConfig, registered: int) -> bool:
    return registered >= config.max_players


def too_few_to_start(config: TournamentConfig, registered: int) -> bool:
    """Fewer than ``min_players`` at the start: it is cancelled and everyone refunded in full (rule 6)."""
    return registered < config.min_players
