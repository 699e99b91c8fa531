"""The records a hand writes: one small frozen value per thing that happened.

Every call that changes a hand returns one of the *decision* records
(``Folded``, ``Checked``, ``Called``, ``Bet``, ``Raised``) and appends it to
the hand's log; the hand also logs what the dealer does (``Posted``,
``HoleCardsDealt``, ``BoardDealt``, ``BetReturned``, ``HoleCardsShown``,
``HoleCardsMucked``). Histories (PHH) and table events are written from the
log. Seats are table seat numbers, amounts are chips (``int``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from tourney.domain.cards import Card


class Street(StrEnum):
    """The four betting rounds of hold'em (docs/rules.md, 'Play')."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


STREETS: tuple[Street, ...] = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)


class ActionKind(StrEnum):
    """A player's decision, as the public API names it (docs/interfaces.md, actions)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class PostKind(StrEnum):
    """A forced bet (docs/rules.md, 'Blinds and the button each hand')."""

    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"


class SeatStatus(StrEnum):
    """Where a dealt-in player stands in the hand."""

    IN = "in"  # can still act, or has acted and is waiting
    ALL_IN = "all_in"  # no chips behind: can no longer act
    FOLDED = "folded"


# Decisions (a ``seq`` each: the n-th decision of the hand, from 0).


@dataclass(frozen=True, slots=True)
class _Decision:
    seq: int
    seat: int


@dataclass(frozen=True, slots=True)
class _TimedOut(_Decision):
    """A decision the clock makes for a player who let their time run out, as well as the player themselves."""

    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class _Wager(_Decision):
    """``to``: the player's whole bet in the round."""

    to: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Folded(_TimedOut):
    kind: ClassVar[ActionKind] = ActionKind.FOLD


@dataclass(frozen=True, slots=True)
class Checked(_TimedOut):
    kind: ClassVar[ActionKind] = ActionKind.CHECK


@dataclass(frozen=True, slots=True)
class Called(_Decision):
    """``amount``: the chips added to the bet (less than asked when all in)."""

    amount: int
    all_in: bool
    kind: ClassVar[ActionKind] = ActionKind.CALL


@dataclass(frozen=True, slots=True)
class Bet(_Wager):
    """The first wager of a round."""

    kind: ClassVar[ActionKind] = ActionKind.BET


@dataclass(frozen=True, slots=True)
class Raised(_Wager):
    """A wager over an earlier one (the posted big blind counts)."""

    kind: ClassVar[ActionKind] = ActionKind.RAISE


Decision = Folded | Checked | Called | Bet | Raised


# What the dealer does.


@dataclass(frozen=True, slots=True)
class Posted:
    """A forced bet; ``amount`` is less than the structure's when the stack was short (all in)."""

    seat: int
    post: PostKind
    amount: int


@dataclass(frozen=True, slots=True)
class _HoleCards:
    seat: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(_HoleCards):
    """Face down, to the seat's player alone."""


@dataclass(frozen=True, slots=True)
class BoardDealt:
    street: Street
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BetReturned:
    """The part of a bet nobody called goes back to its owner."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HoleCardsShown(_HoleCards):
    """Face up, for every player to see."""


@dataclass(frozen=True, slots=True)
class HoleCardsMucked:
    seat: int


Event = Posted | HoleCardsDealt | BoardDealt | BetReturned | HoleCardsShown | HoleCardsMucked
Record = Decision | Event


# The outcome.


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot (the main pot first, then side pots) and who won how much of it.

    ``eligible``: the seats that could still win it at the end (folded,
    mucked and beaten hands left out); ``shares`` goes with ``winners``.
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand ended. Mappings are keyed by seat."""

    finishing_stacks: dict[int, int]
    pots: tuple[PotResult, ...]
    shown: dict[int, tuple[Card, Card]]
    mucked: tuple[int, ...]
    board: tuple[Card, ...]
    showdown: bool

    def won(self, seat: int) -> int:
        """Chips the seat took from the pots (its own uncalled chips excluded)."""
        return sum(s for pot in self.pots for w, s in zip(pot.winners, pot.shares, strict=True) if w == seat)
