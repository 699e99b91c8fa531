"""The domain's errors: one hierarchy, one stable ``code`` per class (docs/architecture.md, 'Errors').

The ``code`` becomes the ``error`` field of an HTTP error body (docs/interfaces.md); the
edge maps classes to statuses by type, never by message text. Add classes here;
never rename a ``code``.

>>> InsufficientFunds("short").code
'insufficient_funds'
>>> issubclass(AlreadyRegistered, Conflict)
True
"""

from __future__ import annotations

from typing import ClassVar


class TourneyError(Exception):
    """Base of every domain error."""

    code: ClassVar[str] = "tourney_error"


class IllegalAction(TourneyError):
    code: ClassVar[str] = "illegal_action"


class NotYourTurn(TourneyError):
    code: ClassVar[str] = "not_your_turn"


class NotYourSeat(TourneyError):
    code: ClassVar[str] = "not_your_seat"


class NotFound(TourneyError):
    code: ClassVar[str] = "not_found"


class StaleVersion(TourneyError):
    code: ClassVar[str] = "stale_version"


class InsufficientFunds(TourneyError):
    """A debit would take an account below zero; nothing was moved (docs/rules.md, Money)."""

    code: ClassVar[str] = "insufficient_funds"


class Conflict(TourneyError):
    """The request contradicts the current state (maps to 409)."""

    code: ClassVar[str] = "conflict"


class RegistrationClosed(Conflict):
    """Registration or unregistration outside the open window (docs/rules.md, rule 2)."""

    code: ClassVar[str] = "registration_closed"


class AlreadyRegistered(Conflict):
    """The player is already registered or wait-listed (docs/rules.md, Money)."""

    code: ClassVar[str] = "already_registered"


class WaitingListFull(Conflict):
    """The field and the waiting list of 10 are full (docs/rules.md, rule 3)."""

    code: ClassVar[str] = "waiting_list_full"


class IdempotencyConflict(Conflict):
    """A different ledger entry was posted under an idempotency key already used."""

    code: ClassVar[str] = "idempotency_conflict"


class NotRegistered(NotFound):
    """The player holds no registration in this tournament."""

    code: ClassVar[str] = "not_registered"


class NotEnoughPlayers(Conflict):
    """A table needs two active players to draw for the button or deal (docs/rules.md, 'Balancing and breaking')."""

    code: ClassVar[str] = "not_enough_players"


class HandInProgress(Conflict):
    """Seats change only between hands: nobody is taken out of a hand in progress (docs/rules.md, rules 11-13)."""

    code: ClassVar[str] = "hand_in_progress"


class NoHandInProgress(Conflict):
    """An action, time-out or cancellation arrived while no hand is being played."""

    code: ClassVar[str] = "no_hand_in_progress"


class SeatTaken(Conflict):
    """The seat is occupied, or the player already sits at the table."""

    code: ClassVar[str] = "seat_taken"


class NotSeated(NotFound):
    """The player or seat is not at this table."""

    code: ClassVar[str] = "not_seated"


class InvalidDisplayName(TourneyError):
    """A display name breaks the rule of ``profile.display_name`` (maps to 422); nothing was changed."""

    code: ClassVar[str] = "invalid_display_name"


class NameTaken(Conflict):
    """Another player holds that display name, regardless of case (maps to 409)."""

    code: ClassVar[str] = "name_taken"


class InvalidConfiguration(TourneyError):
    """A tournament's configuration or blind structure breaks a rule (rules, 'Defaults'); nothing was created."""

    code: ClassVar[str] = "invalid_configuration"


class InvalidClock(Conflict):
    """The tournament clock was given impossible instants, or paused or resumed twice (docs/rules.md, rule 17)."""

    code: ClassVar[str] = "invalid_clock"


class TableFull(Conflict):
    """No empty seat is left where a player must sit (docs/rules.md, 'Balancing and breaking')."""

    code: ClassVar[str] = "table_full"


class StaleAction(StaleVersion):
    """A player's action names a decision (``seq``) that is no longer the one awaited (docs/interfaces.md, actions)."""

    code: ClassVar[str] = "stale_action"


class InvalidDeal(TourneyError):
    """A hand was dealt with inconsistent positions, stacks, blinds or deck (docs/rules.md, rules 7, 8, 14)."""

    code: ClassVar[str] = "invalid_deal"


class NotStartedYet(Conflict):
    """A start asked for before the tournament may start (docs/rules.md, rule 2; a Sit&Go starts when full)."""

    code: ClassVar[str] = "not_started_yet"


class AlreadyStarted(Conflict):
    """An act that only exists before the start, asked for after it (docs/rules.md, rules 2, 4, 17)."""

    code: ClassVar[str] = "already_started"


class ButtonNotDrawn(Conflict):
    """A table's first hand needs the button drawn by cards among its players (docs/rules.md, rule 6)."""

    code: ClassVar[str] = "button_not_drawn"


class LastPlayerInPlay(Conflict):
    """Disqualifying the last player still in play (docs/rules.md, rule 19): a tournament always has a winner."""

    code: ClassVar[str] = "last_player_in_play"


IGNORED_BY_TRIGGERS: tuple[type[TourneyError], ...] = (
    StaleAction,  # the decision was taken or timed out already
    AlreadyStarted,  # a start already made
)
"""Refusals that mean 'stale or duplicate' to a queue, schedule or workflow trigger: logged and ignored.

Only these: the services answer a duplicate or stale message themselves (a hand end already
coordinated, a time-out for a decision taken, a start for a tournament no longer registering), so
any other refusal is something that cannot be settled (a hand end that leaves nobody with chips,
say). Every other error makes the trigger retry, then dead-letter with its alarm
(``entrypoints/triggers.py``; the simulated cloud does the same).
"""
