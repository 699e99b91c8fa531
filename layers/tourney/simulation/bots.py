"""Bot players for simulations: a few seeded styles that play like people.

A bot sees only what a player sees (its own hole cards, the board, the
amounts) and answers with one decision. Styles differ in how many hands they
play and how often they bet, so simulated tournaments last as long as real
ones: most hands are folded before the flop, pots are contested, and all-ins
happen when stacks are short, not every hand.

The strength estimate is deliberately simple: the Chen formula before the
flop and the made hand's category (with the board's own category subtracted)
after it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from tourney.domain.cards import Card
from tourney.domain.evaluator import category_number, evaluate_unchecked
from tourney.domain.hand import ActionKind, Hand


class Style(StrEnum):
    TIGHT_PASSIVE = "tight-passive"
    TIGHT_AGGRESSIVE = "tight-aggressive"
    LOOSE_AGGRESSIVE = "loose-aggressive"
    CALLING_STATION = "calling-station"


@dataclass(frozen=True, slots=True)
class StyleProfile:
    play_threshold: float  # Chen score needed to enter a pot preflop
    raise_threshold: float  # Chen score needed to raise preflop
    aggression: float  # chance to bet/raise with a hand worth it after the flop
    stickiness: float  # chance to call with a marginal hand


PROFILES: dict[Style, StyleProfile] = {
    Style.TIGHT_PASSIVE: StyleProfile(play_threshold=9.0, raise_threshold=12.0, aggression=0.25, stickiness=0.35),
    Style.TIGHT_AGGRESSIVE: StyleProfile(play_threshold=8.0, raise_threshold=9.5, aggression=0.6, stickiness=0.3),
    Style.LOOSE_AGGRESSIVE: StyleProfile(play_threshold=5.5, raise_threshold=8.0, aggression=0.7, stickiness=0.45),
    Style.CALLING_STATION: StyleProfile(play_threshold=5.0, raise_threshold=13.0, aggression=0.15, stickiness=0.8),
}


@dataclass(slots=True)
class Situation:
    """What the bot to act can see (one per decision: a plain class, as a frozen one costs three times more)."""

    hole: tuple[Card, Card]
    board: tuple[Card, ...]
    stack: int  # chips behind, not counting the bet already in front
    to_call: int  # chips needed to call (0: checking is allowed)
    pot: int  # all chips in the middle, current bets included
    min_raise_to: int | None  # None: raising is not allowed
    max_raise_to: int | None
    big_blind: int


class Move(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"  # bet or raise to ``amount``


@dataclass(slots=True)
class BotChoice:
    move: Move
    amount: int | None = None


_CHEN_HIGH = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}


def chen_score(hole: tuple[Card, Card]) -> float:
    """Bill Chen's preflop score: about 20 for aces, 0 or less for trash (half points are kept, not rounded).

    >>> from tourney.domain.cards import parse_cards
    >>> chen_score(tuple(parse_cards("AsAh"))), chen_score(tuple(parse_cards("7c2d")))
    (20.0, -1.5)
    """
    r1, r2 = hole[0] >> 2, hole[1] >> 2
    high, low = max(r1, r2), min(r1, r2)
    score = _CHEN_HIGH.get(high, (high + 2) / 2)
    if r1 == r2:
        return max(score * 2, 5.0)
    if hole[0] & 3 == hole[1] & 3:
        score += 2
    gap = high - low - 1
    score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
    if gap <= 1 and high < 10:
        score += 1
    return score


_CHEN_SCORES: tuple[tuple[float, ...], ...] = tuple(tuple(chen_score((a, b)) for b in range(52)) for a in range(52))
"""``chen_score`` of every pair of cards, by card: a bot looks its preflop score up."""


def _made_strength(hole: tuple[Card, Card], board: tuple[Card, ...]) -> int:
    """0 (nothing beyond the board) .. 8: how much the hole cards add."""
    mine = category_number(evaluate_unchecked((*hole, *board)))  # a dealt hand's cards are distinct
    if len(board) < 5:
        return mine
    on_board = category_number(evaluate_unchecked(board))
    return mine - on_board if mine > on_board else 0


class Bot:
    """One seeded player. ``decide`` is deterministic for a given rng state."""

    def __init__(self, style: Style, rng: random.Random) -> None:
        self.style = style
        self.profile = PROFILES[style]
        self._rng = rng

    def decide(self, seen: Situation) -> BotChoice:
        short = seen.stack + seen.to_call <= 10 * seen.big_blind
        if not seen.board:
            strength = _CHEN_SCORES[seen.hole[0]][seen.hole[1]]
            wants_raise = strength >= self.profile.raise_threshold or (short and strength >= 8)
            wants_play = strength >= self.profile.play_threshold
        else:
            made = _made_strength(seen.hole, seen.board)
            wants_raise = made >= 2 or (made == 1 and self._rng.random() < self.profile.aggression)
            wants_play = made >= 1 or self._rng.random() < self.profile.stickiness * 0.4
        if wants_raise and seen.min_raise_to is not None and self._rng.random() < max(self.profile.aggression, 0.5):
            return BotChoice(Move.RAISE, self._raise_size(seen, short))
        if seen.to_call == 0:
            return BotChoice(Move.CHECK)
        cheap = seen.to_call <= max(seen.big_blind, seen.pot // 4)
        if wants_raise or (wants_play and (cheap or self._rng.random() < self.profile.stickiness)):
            return BotChoice(Move.CALL)
        return BotChoice(Move.FOLD)

    def _raise_size(self, seen: Situation, short: bool) -> int:
        assert seen.min_raise_to is not None and seen.max_raise_to is not None
        if short:
            return seen.max_raise_to
        target = seen.min_raise_to + seen.pot * self._rng.choice((0, 1, 2, 2, 3)) // 3
        return max(seen.min_raise_to, min(seen.max_raise_to, target))


def pick_style(rng: random.Random) -> Style:
    """A field mixes styles; most players are tight."""
    return rng.choices(list(Style), weights=(3, 4, 2, 1))[0]


def next_action(bot: Bot, hand: Hand, seat: int) -> tuple[ActionKind, int | None] | None:
    """What ``bot`` plays at ``seat`` of the hand, from what that player sees; None when it is not to act.

    A raise with nothing to call is a bet; a check or call that is not allowed becomes a check
    if it is free, else a fold.
    """
    options = hand.options()
    if options is None:
        return None
    # Positional, in the fields' order (hole, board, stack, to_call, pot, min and max raise-to, big blind).
    seen = Situation(hand.hole_cards(seat), hand.board, options.stack, options.to_call, hand.pot,
                     options.min_raise_to, options.max_raise_to, hand.big_blind)  # fmt: skip
    choice = bot.decide(seen)
    if choice.move is Move.RAISE:
        kind = ActionKind.BET if options.bet == 0 and options.to_call == 0 else ActionKind.RAISE
        return kind, choice.amount
    if choice.move is Move.CHECK and options.can_check:
        return ActionKind.CHECK, None
    if choice.move is Move.CALL and options.can_call:
        return ActionKind.CALL, None
    return (ActionKind.CHECK if options.can_check else ActionKind.FOLD), None
