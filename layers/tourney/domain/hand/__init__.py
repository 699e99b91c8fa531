"""The no-limit hold'em hand state machine (docs/rules.md, 'Play').

>>> from tourney.domain.hand import Hand
>>> hand = Hand.deal({1: 1000, 2: 1000, 3: 1000}, button=1, small_blind_seat=2, big_blind_seat=3,
...                  small_blind=50, big_blind=100, deck=list(range(52)))
>>> hand.actor, hand.to_call, hand.min_raise_to, hand.max_raise_to
(1, 100, 200, 1000)
>>> hand.fold(1), hand.fold(2)
(Folded(seq=0, seat=1, timed_out=False), Folded(seq=1, seat=2, timed_out=False))
>>> hand.is_over, hand.result.finishing_stacks
(True, {2: 950, 3: 1050, 1: 1000})
"""

from tourney.domain.hand.actions import (
    STREETS,
    ActionKind,
    Bet,
    BetReturned,
    BoardDealt,
    Called,
    Checked,
    Decision,
    Event,
    Folded,
    HandResult,
    HoleCardsDealt,
    HoleCardsMucked,
    HoleCardsShown,
    Posted,
    PostKind,
    PotResult,
    Raised,
    Record,
    SeatStatus,
    Street,
)
from tourney.domain.hand.pots import build_pots, split
from tourney.domain.hand.state import Hand, Options, Pot

__all__ = [
    "STREETS",
    "ActionKind",
    "Bet",
    "BetReturned",
    "BoardDealt",
    "Called",
    "Checked",
    "Decision",
    "Event",
    "Folded",
    "Hand",
    "HandResult",
    "HoleCardsDealt",
    "HoleCardsMucked",
    "HoleCardsShown",
    "Options",
    "PostKind",
    "Posted",
    "Pot",
    "PotResult",
    "Raised",
    "Record",
    "SeatStatus",
    "Street",
    "build_pots",
    "split",
]
