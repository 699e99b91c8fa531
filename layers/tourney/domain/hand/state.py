"""One hand of no-limit Texas hold'em at a tournament table (docs/rules.md, 'Play'; seed rules 7, 9, 14, 16).

The table decides who is dealt in and who holds the button and the blinds
(``tourney.domain.blinds``); a ``Hand`` takes those positions, posts the
antes and blinds, deals from the deck it is given, takes the players'
decisions in turn and pays the pots.

Readings fixed here (the seed leaves them open; they are also pokerkit's, so
our histories replay there exactly):

* Order: players are numbered clockwise from the first seat after the
  button (index 0) to the button (last). Before the flop the first to act is
  the first player after the big blind; after it, the first after the button.
  Heads-up the button posts the small blind, so it acts first before the flop
  and last after it (rule 14) with no special case. When the blinds posted
  no chips at all (every chip they had went to the antes), there is no bet
  before the flop either, and the round opens like a later one, with the
  first player after the button (pokerkit's reading: it matters only when
  players sit between the button and the blinds, rule 8).
* Forced bets: antes first (every player, or the big blind alone for a
  big-blind ante), then the blinds; a short stack posts what it has and is
  all in. A big-blind ante is dead money in the main pot; ordinary antes
  count towards side pots like any bet.
* Betting: the minimum bet is the big blind; a raise must add at least the
  largest bet or raise of the round (and at least the big blind). To call is
  to match the largest bet in front of anyone. A blind all in for less than
  its amount (docs/rules.md, 'Blinds and the button each hand') posts what it has:
  the amount to call is the largest bet actually posted, and the minimum
  raise adds one big blind to it (a big blind all in for 30 at 25/50: 30 to
  call, the least raise is to 80), as pokerkit plays it. An all-in that is short of a
  full raise does not reopen the betting for players who have already acted:
  they may call or fold, unless short all-ins in a row add up to a full
  raise. Nobody may raise when no other player could call more.
* The part of a bet that nobody called goes back at the end of the round.
  When at most one player can still bet, the remaining board is dealt out.
* Showdown: when a player still holding cards is all in, every hand is
  shown. Otherwise players show in turn, the last bettor or raiser of the
  river first, else the first player after the button; a hand that can no
  longer win any pot it plays for is mucked.
* Pots are split equally; odd chips go to the first winner clockwise from
  the button (``pots.split``).
* Time-out (rule 16): check when there is nothing to call, otherwise fold;
  before the flop the posted big blind is a bet to call.

Speed matters (a 9-handed hand is a few hundred microseconds of CPython): per
player state lives in lists of ints indexed by position, and records are built
only for what the log needs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, ParamSpec

from tourney.domain import fairness
from tourney.domain.cards import Card, cards_str, parse_cards
from tourney.domain.errors import IllegalAction, InvalidDeal, NoHandInProgress, NotYourTurn, StaleAction
from tourney.domain.evaluator import evaluate7
from tourney.domain.hand.actions import (
    STREETS,
    ActionKind,
    Bet,
    BetReturned,
    BoardDealt,
    Called,
    Checked,
    Decision,
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
from tourney.domain.hand.dealing import check_forced_bets_and_deck, seating_order
from tourney.domain.hand.pots import build_pots, split

FORMAT_VERSION: Final = 3
_BOARD_STEPS: Final = ((0, 0), (0, 3), (4, 1), (6, 1))  # per street: (burnt card after the hole cards, cards)


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot in the middle: its chips and the seats that may still win it."""

    amount: int
    eligible: tuple[int, ...]


class Options(NamedTuple):
    """What the player to act may do now (for a client or a bot).

    A named tuple, not a dataclass: a bot asks for it before every decision.
    """

    seat: int
    to_call: int  # 0: checking is allowed
    can_fold: bool
    can_check: bool
    can_call: bool
    min_raise_to: int | None  # None: no bet or raise is allowed
    max_raise_to: int | None
    stack: int
    bet: int


FOLD_AT_ONCE: Final = "x"
"""How ``to_dict`` writes a fold out of turn (a disqualification, docs/rules.md rule 19)."""


@dataclass(frozen=True, slots=True)
class FoldedAtOnce(Folded):
    """A hand folded out of turn by a disqualification (docs/rules.md, rule 19); histories show it as a fold."""


_LETTERS: Final[dict[type, str]] = {
    Folded: "f",
    FoldedAtOnce: FOLD_AT_ONCE,
    Checked: "k",
    Called: "c",
    Bet: "b",
    Raised: "r",
}
"""How ``to_dict`` writes each decision, by the record's exact type (the dealer's records are not written)."""
_KINDS: Final = {"f": ActionKind.FOLD, "k": ActionKind.CHECK, "c": ActionKind.CALL, "b": ActionKind.BET,
                 "r": ActionKind.RAISE}  # fmt: skip
_DECISION: Final = re.compile(r"([fxkcbr])(\d+)(?::(\d+))?(\*)?")

_Act = ParamSpec("_Act")


def _allowed(verify: Callable[_Act, object], *args: _Act.args, **kwargs: _Act.kwargs) -> bool:
    """Whether ``verify`` lets the act through: for the ``can_*`` questions a refusal is an answer, not an error."""
    try:
        verify(*args, **kwargs)
    except (IllegalAction, NotYourTurn, StaleAction, NoHandInProgress):
        return False
    return True


class Hand:
    """One hand of no-limit hold'em (docs/rules.md, 'Play'); see the module docstring for the exact rules.

    Create it with ``Hand.deal``; act with the verify/can/act triads
    (``verify_fold``, ``can_fold``, ``fold`` ...); read it with the queries.
    Every decision carries a sequence number (``seq``): an action sent for a
    decision that is no longer awaited raises ``StaleAction``.
    """

    __slots__ = (
        "_acted",
        "_active",
        "_active_count",
        "_actors",
        "_ante",
        "_bb",
        "_bb_ante",
        "_bets",
        "_big_blind",
        "_board",
        "_cancelled",
        "_commitment",
        "_dead",
        "_deck",
        "_index",
        "_last_raise",
        "_log",
        "_max_bet",
        "_mucked",
        "_n",
        "_opener",
        "_over",
        "_paid",
        "_posts",
        "_result",
        "_salts",
        "_sb",
        "_seats",
        "_secret",
        "_seq",
        "_short",
        "_shown",
        "_small_blind",
        "_stacks",
        "_starting",
        "_street",
    )

    _seats: tuple[int, ...]
    _index: dict[int, int]
    _n: int
    _sb: int
    _bb: int
    _small_blind: int
    _big_blind: int
    _ante: int
    _bb_ante: bool
    _starting: tuple[int, ...]
    _deck: tuple[Card, ...]
    _secret: bytes | None
    _salts: tuple[str, ...] | None
    """Derived from ``_secret`` the first time they are asked for."""
    _commitment: str | None
    _stacks: list[int]
    _bets: list[int]
    _paid: list[int]
    _dead: int
    _active: list[bool]
    _active_count: int
    _board: list[Card]
    _street: int
    _actors: list[int]
    _acted: list[bool]
    _max_bet: int
    _last_raise: int
    _short: int
    _opener: int
    _seq: int
    _log: list[Record]
    """What happened after the deal: the forced bets and hole cards are ``_posts`` and the deck (see ``log``)."""
    _posts: list[tuple[int, PostKind, int]]
    _over: bool
    _cancelled: bool
    _result: HandResult | None
    _shown: dict[int, tuple[Card, Card]]
    _mucked: list[int]

    # ----------------------------------------------------------------- dealing

    @classmethod
    def deal(
        cls,
        stacks: Mapping[int, int],
        *,
        button: int,
        small_blind_seat: int | None,
        big_blind_seat: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: bool = False,
        deck: Sequence[Card],
        secret: bytes | None = None,
    ) -> Hand:
        """Post the forced bets, deal the hole cards and wait for the first decision.

        ``stacks``: every dealt-in player's seat and chips (docs/rules.md, rule 8:
        all active players are dealt in). ``small_blind_seat`` is ``None`` when
        there is no small blind this hand (rule 7). ``ante``: posted by every
        player, or by the big blind alone for the table when ``big_blind_ante``.
        ``deck``: already shuffled (with ``secrets``); hole cards go one at a
        time round the table from the first seat after the button, and a card
        is burnt before the flop, the turn and the river. ``secret``: the hand's
        32 bytes the salts of the commitment to the deck derive from (``tourney.domain.fairness``).
        """
        order, sb, bb = seating_order(stacks, button, small_blind_seat, big_blind_seat)
        check_forced_bets_and_deck(len(order), small_blind, big_blind, ante, deck)
        n = len(order)
        index = {seat: i for i, seat in enumerate(order)}

        self = object.__new__(cls)
        self._seats = order
        self._index = index
        self._n = n
        self._sb = sb
        self._bb = bb
        self._small_blind = small_blind
        self._big_blind = big_blind
        self._ante = ante
        self._bb_ante = big_blind_ante
        self._starting = tuple(stacks[seat] for seat in order)
        self._deck = tuple(deck)
        if secret is not None and (len(secret) != fairness.SECRET_BYTES or len(self._deck) != fairness.DECK_SIZE):
            raise InvalidDeal(f"a commitment needs a secret of {fairness.SECRET_BYTES} bytes and a deck of 52 cards")
        self._secret = secret
        self._salts = None
        self._commitment = None
        self._seq = 0
        self._log = []
        self._over = False
        self._cancelled = False
        self._result = None
        self._shown = {}
        self._mucked = []
        self._start()
        return self

    def _start(self) -> None:
        n = self._n
        order = self._seats
        posts: list[tuple[int, PostKind, int]] = []  # (seat, kind, chips): ``log`` makes them ``Posted`` records
        self._posts = posts
        stacks = list(self._starting)
        paid = [0] * n
        bets = [0] * n
        self._dead = 0
        ante = self._ante
        if ante:
            if self._bb_ante:
                i = self._bb
                posted = ante if stacks[i] > ante else stacks[i]
                stacks[i] -= posted
                self._dead = posted
                posts.append((order[i], PostKind.ANTE, posted))
            else:
                for i in range(n):
                    posted = ante if stacks[i] > ante else stacks[i]
                    stacks[i] -= posted
                    paid[i] = posted
                    posts.append((order[i], PostKind.ANTE, posted))
        for i, amount, kind in (
            (self._sb, self._small_blind, PostKind.SMALL_BLIND),
            (self._bb, self._big_blind, PostKind.BIG_BLIND),
        ):
            if i >= 0 and stacks[i]:
                posted = amount if stacks[i] > amount else stacks[i]
                stacks[i] -= posted
                bets[i] = posted
                paid[i] += posted
                posts.append((order[i], kind, posted))
        self._stacks = stacks
        self._paid = paid
        self._bets = bets
        self._max_bet = max(bets)
        self._active = [True] * n
        self._active_count = n
        self._board = []
        self._street = 0
        self._begin_betting()

    # ----------------------------------------------------------------- betting

    def _begin_betting(self) -> None:
        n = self._n
        # before the flop, after the big blind; with no blind chips posted at all, after the button (pokerkit)
        opener = (self._bb + 1) % n if self._street == 0 and self._max_bet else 0
        self._opener = opener
        stacks = self._stacks
        active = self._active
        bets = self._bets
        # a player whose bet already covers every other player's chips has no decision to make
        totals = sorted(bets[i] + stacks[i] for i in range(n) if active[i])
        covered = totals[-2]
        actors = [i for i in range(opener, n) if active[i] and stacks[i] and bets[i] < covered]
        actors += [i for i in range(opener) if active[i] and stacks[i] and bets[i] < covered]
        self._actors = actors
        self._acted = [False] * n
        self._last_raise = 0
        self._short = 0
        if not actors or (len(actors) == 1 and bets[actors[0]] >= self._max_bet):
            self._end_betting()

    def _end_betting(self) -> None:
        self._actors = []
        n = self._n
        stacks = self._stacks
        active = self._active
        bets = self._bets
        can_bet = 0
        someone_all_in = False
        for i in range(n):
            if active[i]:
                if stacks[i]:
                    can_bet += 1
                else:
                    someone_all_in = True
        top = self._max_bet
        if top:
            second = 0
            top_index = -1
            for i in range(n):
                b = bets[i]
                if b == top and top_index < 0:
                    top_index = i
                elif b > second:
                    second = b
            if second < top:
                self._return_uncalled(top_index, top - second)
            for i in range(n):
                bets[i] = 0
            self._max_bet = 0
        if self._active_count == 1:
            self._finish_uncontested()
        elif self._street == 3:
            self._showdown(reveal_all=someone_all_in)
        elif can_bet <= 1:
            self._show_all()
            while self._street < 3:
                self._deal_next_street()
            self._showdown(reveal_all=True)
        else:
            self._deal_next_street()
            self._begin_betting()

    def _return_uncalled(self, i: int, amount: int) -> None:
        self._stacks[i] += amount
        self._paid[i] -= amount
        self._log.append(BetReturned(self._seats[i], amount))

    def _deal_next_street(self) -> None:
        self._street += 1
        offset, count = _BOARD_STEPS[self._street]
        start = 2 * self._n + offset + 1  # after the burnt card
        cards = self._deck[start : start + count]
        self._board.extend(cards)
        self._log.append(BoardDealt(STREETS[self._street], cards))

    def _actor_index(self, seat: int, seq: int | None) -> int:
        """The actor's index, after checking the hand, the sequence number and the turn."""
        if self._over:
            raise NoHandInProgress("the hand is over")
        if seq is not None and seq != self._seq:
            raise StaleAction(f"decision {seq} is stale: decision {self._seq} is awaited")
        actors = self._actors
        if self._seats[actors[0]] != seat:
            raise NotYourTurn(f"seat {seat} cannot act: it is seat {self._seats[actors[0]]}'s turn")
        return actors[0]

    def _advance(self, i: int) -> None:
        """The actor at ``i`` has acted without raising."""
        self._actors.pop(0)
        self._acted[i] = True
        self._seq += 1
        if not self._actors or self._active_count == 1:
            self._end_betting()

    # fold

    def verify_fold(self, seat: int, *, seq: int | None = None) -> None:
        """Raise unless ``seat`` may fold now (folding with nothing to call is not allowed: check instead)."""
        i = self._actor_index(seat, seq)
        if self._bets[i] >= self._max_bet:
            raise IllegalAction(f"seat {seat} has nothing to call: check instead of folding")

    def can_fold(self, seat: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_fold, seat, seq=seq)

    def fold(self, seat: int, *, seq: int | None = None) -> Folded:
        self.verify_fold(seat, seq=seq)
        return self._fold(seat, timed_out=False)

    def _fold(self, seat: int, timed_out: bool) -> Folded:
        i = self._actors[0]
        record = Folded(self._seq, seat, timed_out)
        self._log.append(record)
        self._active[i] = False
        self._active_count -= 1
        self._advance(i)
        return record

    def fold_at_once(self, seat: int) -> Folded | None:
        """Fold ``seat`` now, in turn or not: a disqualification (docs/rules.md, rule 19). None if already out.

        The chips it put in are dead: they stay in the pot for the others, and
        the betting goes on over the live bets (a raise of the folded seat no
        longer needs calling). Out of turn, the decision awaited stays awaited
        (same ``seq``); the hand ends if one player is left.
        """
        if self._over:
            raise NoHandInProgress("the hand is over")
        i = self._i(seat)
        if not self._active[i]:
            return None
        self._dead += self._paid[i]
        self._paid[i] = 0
        bets = self._bets
        bets[i] = 0
        self._max_bet = max(bets)
        record = FoldedAtOnce(self._seq, seat, False)
        self._log.append(record)
        self._active[i] = False
        self._active_count -= 1
        actors = self._actors
        if actors and actors[0] == i:
            self._advance(i)
            return record
        if i in actors:
            actors.remove(i)
        if not actors or self._active_count == 1:
            self._end_betting()
        return record

    # check

    def verify_check(self, seat: int, *, seq: int | None = None) -> None:
        i = self._actor_index(seat, seq)
        if self._bets[i] < self._max_bet:
            raise IllegalAction(f"seat {seat} cannot check: {self._max_bet - self._bets[i]} to call")

    def can_check(self, seat: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_check, seat, seq=seq)

    def check(self, seat: int, *, seq: int | None = None) -> Checked:
        self.verify_check(seat, seq=seq)
        return self._check(seat, timed_out=False)

    def _check(self, seat: int, timed_out: bool) -> Checked:
        record = Checked(self._seq, seat, timed_out)
        self._log.append(record)
        self._advance(self._actors[0])
        return record

    # call

    def verify_call(self, seat: int, *, seq: int | None = None) -> int:
        """Raise unless ``seat`` may call now; return the chips the call costs (all the stack if short)."""
        i = self._actor_index(seat, seq)
        owed = self._max_bet - self._bets[i]
        if owed <= 0:
            raise IllegalAction(f"seat {seat} has nothing to call: check instead")
        stack = self._stacks[i]
        return owed if owed < stack else stack

    def can_call(self, seat: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_call, seat, seq=seq)

    def call(self, seat: int, *, seq: int | None = None) -> Called:
        amount = self.verify_call(seat, seq=seq)
        i = self._actors[0]
        self._stacks[i] -= amount
        self._bets[i] += amount
        self._paid[i] += amount
        record = Called(self._seq, seat, amount, not self._stacks[i])
        self._log.append(record)
        self._advance(i)
        return record

    # bet or raise

    def _raise_bounds(self, i: int) -> tuple[int, int] | str:
        """(min, max) raise-to amounts for the actor at ``i``, or why raising is not allowed."""
        stack = self._stacks[i]
        bet = self._bets[i]
        max_bet = self._max_bet
        owed = max_bet - bet
        if stack <= owed:
            return "the stack does not cover more than a call"
        if owed < self._last_raise or (self._short and self._acted[i]):
            return "an all-in short of a full raise does not reopen the betting"
        active = self._active
        stacks = self._stacks
        bets = self._bets
        for j in range(self._n):
            if j != i and active[j] and stacks[j] + bets[j] > max_bet:
                break
        else:
            return "no other player could call more"
        full = max_bet + (self._last_raise if self._last_raise > self._big_blind else self._big_blind)
        most = stack + bet
        return (full if full < most else most), most

    def verify_bet_or_raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> None:
        """Raise unless ``seat`` may make its bet ``amount`` in this round (a bet, or a raise over the largest bet)."""
        i = self._actor_index(seat, seq)
        bounds = self._raise_bounds(i)
        if isinstance(bounds, str):
            raise IllegalAction(f"seat {seat} cannot bet or raise: {bounds}")
        least, most = bounds
        if not least <= amount <= most:
            raise IllegalAction(f"seat {seat} can bet or raise to {least}..{most}, not {amount}")

    def can_bet_or_raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_bet_or_raise_to, seat, amount, seq=seq)

    def bet_or_raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> Bet | Raised:
        """Make the seat's whole bet in this round ``amount`` (docs/interfaces.md: bet, raise)."""
        self.verify_bet_or_raise_to(seat, amount, seq=seq)
        return self._raise_to(self._actors[0], amount)

    def verify_bet(self, seat: int, amount: int, *, seq: int | None = None) -> None:
        """A bet opens the round: nothing may be in front of anyone (before the flop the big blind is a bet)."""
        self.verify_bet_or_raise_to(seat, amount, seq=seq)
        if self._max_bet:
            raise IllegalAction(f"seat {seat} faces a bet of {self._max_bet}: raise instead")

    def can_bet(self, seat: int, amount: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_bet, seat, amount, seq=seq)

    def bet(self, seat: int, amount: int, *, seq: int | None = None) -> Bet | Raised:
        self.verify_bet(seat, amount, seq=seq)
        return self._raise_to(self._actors[0], amount)

    def verify_raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> None:
        self.verify_bet_or_raise_to(seat, amount, seq=seq)
        if not self._max_bet:
            raise IllegalAction(f"seat {seat} faces no bet: bet instead")

    def can_raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> bool:
        return _allowed(self.verify_raise_to, seat, amount, seq=seq)

    def raise_to(self, seat: int, amount: int, *, seq: int | None = None) -> Bet | Raised:
        self.verify_raise_to(seat, amount, seq=seq)
        return self._raise_to(self._actors[0], amount)

    def _raise_to(self, i: int, amount: int) -> Bet | Raised:
        n = self._n
        stacks = self._stacks
        active = self._active
        max_bet = self._max_bet
        increase = amount - max_bet
        added = amount - self._bets[i]
        self._bets[i] = amount
        stacks[i] -= added
        self._paid[i] += added
        record: Bet | Raised = (Raised if max_bet else Bet)(self._seq, self._seats[i], amount, not stacks[i])
        self._log.append(record)
        self._seq += 1
        actors = [j for j in range(i + 1, n) if active[j] and stacks[j]]
        actors += [j for j in range(i) if active[j] and stacks[j]]
        self._actors = actors
        if increase >= self._last_raise:
            acted = [False] * n
            acted[i] = True
            self._acted = acted
            self._last_raise = increase
        else:
            self._acted[i] = True
        # all-ins short of a full raise reopen the betting once, in a row, they add up to one
        self._short = 0 if stacks[i] else self._short + increase
        if self._short >= self._last_raise:
            self._short = 0
        self._max_bet = amount
        self._opener = i
        return record

    # time-out and dispatch

    def timeout(self, seat: int, *, seq: int | None = None) -> Checked | Folded:
        """The decision time ran out (docs/rules.md, rule 16): check if nothing is to call, otherwise fold."""
        i = self._actor_index(seat, seq)
        if self._bets[i] >= self._max_bet:
            return self._check(seat, timed_out=True)
        return self._fold(seat, timed_out=True)

    def act(self, kind: ActionKind, seat: int, amount: int | None = None, *, seq: int | None = None) -> Decision:
        """One decision by its public name (docs/interfaces.md: fold, check, call, bet, raise with ``amount``)."""
        if kind is ActionKind.FOLD:
            return self.fold(seat, seq=seq)
        if kind is ActionKind.CHECK:
            return self.check(seat, seq=seq)
        if kind is ActionKind.CALL:
            return self.call(seat, seq=seq)
        if amount is None:
            raise IllegalAction(f"a {kind} needs an amount")
        if kind is ActionKind.BET:
            return self.bet(seat, amount, seq=seq)
        return self.raise_to(seat, amount, seq=seq)

    # ---------------------------------------------------------------- showdown

    def _show_order(self) -> list[int]:
        opener = self._opener
        active = self._active
        return [i for i in [*range(opener, self._n), *range(opener)] if active[i]]

    def _show(self, i: int) -> None:
        cards = (self._deck[i], self._deck[self._n + i])
        seat = self._seats[i]
        self._shown[seat] = cards
        self._log.append(HoleCardsShown(seat, cards))

    def _show_all(self) -> None:
        for i in self._show_order():
            self._show(i)

    def _showdown(self, *, reveal_all: bool) -> None:
        n = self._n
        deck = self._deck
        b0, b1, b2, b3, b4 = self._board
        active = self._active
        strength = [-1] * n
        for i in range(n):
            if active[i]:
                strength[i] = evaluate7(deck[i], deck[n + i], b0, b1, b2, b3, b4)
        self._trim_contributions()
        live = self._paid
        order = self._show_order()
        holding = list(active)
        if reveal_all:
            if not self._shown:
                self._show_all()
        else:
            pots = build_pots(live, self._dead, active)
            best: list[int | None] = [None] * len(pots)
            log = self._log
            for i in order:
                mine = strength[i]
                wins = False
                for k, (_amount, players) in enumerate(pots):
                    if i in players:
                        shown_best = best[k]
                        if shown_best is None or shown_best <= mine:
                            wins = True
                            break
                if wins:
                    self._show(i)
                    for k, (_amount, players) in enumerate(pots):
                        shown_best = best[k]
                        if i in players and (shown_best is None or shown_best < mine):
                            best[k] = mine
                else:
                    self._mucked.append(self._seats[i])
                    log.append(HoleCardsMucked(self._seats[i]))
                    holding[i] = False
        # a hand that wins no pot is out, which can merge pots (and so move an odd chip)
        winning = [False] * n
        for _amount, players in build_pots(live, self._dead, holding):
            top = max(strength[j] for j in players)
            for j in players:
                if strength[j] == top:
                    winning[j] = True
        awarded = []
        for amount, players in build_pots(live, self._dead, winning):
            top = max(strength[j] for j in players)
            winners = tuple(j for j in players if strength[j] == top)
            awarded.append((amount, players, winners, split(amount, len(winners))))
        self._finish(awarded, showdown=True)

    def _trim_contributions(self) -> None:
        """Return what nobody matched over the whole hand (only an ante can be left unmatched by then)."""
        live = self._paid
        top = max(live)
        if live.count(top) == 1:
            second = max(x for x in live if x != top)
            self._return_uncalled(live.index(top), top - second)

    def _finish_uncontested(self) -> None:
        self._trim_contributions()
        winner = self._active.index(True)
        awarded = [
            (amount, players, (winner,), (amount,))
            for amount, players in build_pots(self._paid, self._dead, self._active)
        ]
        self._finish(awarded, showdown=False)

    def _finish(
        self,
        awarded: Sequence[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]],
        *,
        showdown: bool,
    ) -> None:
        order = self._seats
        finishing = list(self._stacks)
        pots = []
        for amount, players, winners, shares in awarded:
            for j, share in zip(winners, shares, strict=True):
                finishing[j] += share
            pots.append(
                PotResult(
                    amount,
                    tuple(order[j] for j in players),
                    tuple(order[j] for j in winners),
                    shares,
                )
            )
        self._stacks = finishing
        self._actors = []
        self._over = True
        self._result = HandResult(
            finishing_stacks=dict(zip(order, finishing, strict=True)),
            pots=tuple(pots),
            shown=self._shown,
            mucked=tuple(self._mucked),
            board=tuple(self._board),
            showdown=showdown,
        )

    # ---------------------------------------------------------------- queries

    @property
    def seats(self) -> tuple[int, ...]:
        """The dealt-in seats clockwise from the first after the button; the button is last."""
        return self._seats

    @property
    def button(self) -> int:
        return self._seats[-1]

    @property
    def small_blind_seat(self) -> int | None:
        return None if self._sb < 0 else self._seats[self._sb]

    @property
    def big_blind_seat(self) -> int:
        return self._seats[self._bb]

    @property
    def small_blind(self) -> int:
        return self._small_blind

    @property
    def big_blind(self) -> int:
        return self._big_blind

    @property
    def ante(self) -> int:
        return self._ante

    @property
    def big_blind_ante(self) -> bool:
        return self._bb_ante

    @property
    def starting_stacks(self) -> dict[int, int]:
        """Each seat's chips before the hand: what a cancelled hand restores (docs/rules.md, rule 17)."""
        return dict(zip(self._seats, self._starting, strict=True))

    @property
    def seq(self) -> int:
        """The sequence number of the decision awaited (the number of decisions so far)."""
        return self._seq

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def is_cancelled(self) -> bool:
        return self._cancelled

    @property
    def result(self) -> HandResult | None:
        """How the hand ended; ``None`` while it is played (or when it was cancelled)."""
        return self._result

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited, if any."""
        return self._seats[self._actors[0]] if self._actors else None

    def awaited(self) -> tuple[int, int] | None:
        """(``seq``, ``actor``) of the decision awaited, or None when the hand is over or nobody is to act.

        One call for what a table asks before every decision and every time-out.
        """
        if self._over or not self._actors:
            return None
        return self._seq, self._seats[self._actors[0]]

    @property
    def street(self) -> Street:
        return STREETS[self._street]

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._board)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole shuffled deck, in dealing order (never shown to a player: the operator's export)."""
        return self._deck

    @property
    def secret(self) -> bytes | None:
        """The hand's secret the salts derive from, or None for a hand dealt without a commitment.

        Never shown to a player: it gives every salt, hence a way to check a guess of a card not shown.
        """
        return self._secret

    @property
    def salts(self) -> tuple[str, ...] | None:
        """The salts of the deck's commitment (derived from the secret), or None for a hand dealt without one."""
        if self._salts is None and self._secret is not None:
            self._salts = fairness.salts_of(self._secret)
        return self._salts

    @property
    def commitment(self) -> str | None:
        """The commitment to the deck published at the deal (``tourney.domain.fairness``), or None."""
        if self._commitment is None and self._secret is not None:
            self._commitment = fairness.commitment(self._deck, self.salts or ())
        return self._commitment

    def positions_seen_by(self, seat: int | None) -> tuple[int, ...]:
        """The deck positions a viewer sees once the hand is over: the board, hands shown, their own cards."""
        n = self._n
        seen = list(fairness.board_positions(n, len(self._board)))
        for i, order_seat in enumerate(self._seats):
            if order_seat == seat or order_seat in self._shown:
                seen.extend(fairness.hole_positions(n, i))
        return tuple(sorted(seen))

    def street_decisions(self) -> dict[int, Decision]:
        """Each seat's last decision of the current street, by seat (none before a seat acts on it).

        The street starts at its board's deal (pre-flop: at the deal); the forced bets are not decisions.
        """
        last: dict[int, Decision] = {}
        for record in reversed(self._log):
            if type(record) is BoardDealt:
                break
            if isinstance(record, Folded | Checked | Called | Bet | Raised) and record.seat not in last:
                last[record.seat] = record
        return last

    @property
    def log(self) -> tuple[Record, ...]:
        """Everything that happened, in order: the forced bets, the hole cards, then the play.

        The deal's records are made here, when a history is written, not at every deal (where nothing reads them).
        """
        deck, n, order = self._deck, self._n, self._seats
        posted = [Posted(seat, kind, chips) for seat, kind, chips in self._posts]
        dealt = [HoleCardsDealt(order[i], (deck[i], deck[n + i])) for i in range(n)]
        return (*posted, *dealt, *self._log)

    @property
    def to_call(self) -> int:
        """Chips the player to act needs to call (0: check); 0 when nobody is to act."""
        if not self._actors:
            return 0
        i = self._actors[0]
        owed = self._max_bet - self._bets[i]
        return owed if owed < self._stacks[i] else self._stacks[i]

    @property
    def min_raise_to(self) -> int | None:
        """The smallest bet or raise-to the player to act may make, or ``None``."""
        bounds = self._raise_bounds(self._actors[0]) if self._actors else ""
        return None if isinstance(bounds, str) else bounds[0]

    @property
    def max_raise_to(self) -> int | None:
        """The largest bet or raise-to (all in) the player to act may make, or ``None``."""
        bounds = self._raise_bounds(self._actors[0]) if self._actors else ""
        return None if isinstance(bounds, str) else bounds[1]

    def options(self) -> Options | None:
        """Everything the player to act may do, or ``None`` when nobody is to act."""
        if not self._actors:
            return None
        i = self._actors[0]
        owed = self._max_bet - self._bets[i]
        stack = self._stacks[i]
        bounds = self._raise_bounds(i)
        if isinstance(bounds, str):
            return Options(self._seats[i], owed if owed < stack else stack, owed > 0, owed <= 0, owed > 0,
                           None, None, stack, self._bets[i])  # fmt: skip
        return Options(self._seats[i], owed if owed < stack else stack, owed > 0, owed <= 0, owed > 0,
                       bounds[0], bounds[1], stack, self._bets[i])  # fmt: skip

    @property
    def pot(self) -> int:
        """All chips in the middle, bets of the current round included."""
        return sum(self._paid) + self._dead

    @property
    def pots(self) -> tuple[Pot, ...]:
        """The main pot and the side pots as they stand (bets of the current round included)."""
        if self._result is not None:
            return tuple(Pot(p.amount, p.eligible) for p in self._result.pots)
        order = self._seats
        return tuple(
            Pot(amount, tuple(order[j] for j in players))
            for amount, players in build_pots(self._paid, self._dead, self._active)
        )

    @property
    def gathered_pots(self) -> tuple[Pot, ...]:
        """The main pot and the side pots of the chips gathered so far: the current round's bets left out.

        What a table shows during the hand: the bets still in front of the seats are not in a pot yet.
        """
        order = self._seats
        live = [paid - bet for paid, bet in zip(self._paid, self._bets, strict=True)]
        return tuple(
            Pot(amount, tuple(order[j] for j in players))
            for amount, players in build_pots(live, self._dead, self._active)
        )

    def _i(self, seat: int) -> int:
        try:
            return self._index[seat]
        except KeyError:
            raise NotYourTurn(f"seat {seat} is not dealt in this hand") from None

    def stack(self, seat: int) -> int:
        """Chips behind (not counting the bet in front); the finishing stack once the hand is over."""
        return self._stacks[self._i(seat)]

    def current_bet(self, seat: int) -> int:
        """Chips the seat has in front of it in the current betting round."""
        return self._bets[self._i(seat)]

    def committed(self, seat: int) -> int:
        """Chips the seat has put in the pot this hand (antes, blinds and bets; a big-blind ante excluded)."""
        return self._paid[self._i(seat)]

    def status(self, seat: int) -> SeatStatus:
        i = self._i(seat)
        if not self._active[i]:
            return SeatStatus.FOLDED
        return SeatStatus.IN if self._stacks[i] or self._over else SeatStatus.ALL_IN

    def hole_cards(self, seat: int) -> tuple[Card, Card]:
        """The seat's two cards (private: the caller decides who may see them)."""
        i = self._i(seat)
        return self._deck[i], self._deck[self._n + i]

    # ------------------------------------------------------------ cancelling

    def cancel(self) -> dict[int, int]:
        """Cancel the hand in progress (docs/rules.md, rule 17): the cards are void, every stack goes back to its start.

        Cancelling again answers the same; a hand played out cannot be cancelled (``NoHandInProgress``).
        """
        if self._over and not self._cancelled:
            raise NoHandInProgress("the hand was played out: there is nothing to cancel")
        self._cancelled = True
        self._over = True
        self._actors = []
        self._result = None
        self._stacks = list(self._starting)
        return self.starting_stacks

    def copy(self) -> Hand:
        """A copy that later decisions on this hand do not change: its lists and maps are its own (what they hold,
        records, cards and numbers, is immutable)."""
        twin = Hand.__new__(Hand)
        for name in Hand.__slots__:
            value = getattr(self, name)
            kind = type(value)
            setattr(twin, name, value[:] if kind is list else dict(value) if kind is dict else value)
        return twin

    # ---------------------------------------------------------- serializing

    def to_dict(self) -> dict[str, Any]:
        """Plain data (ints, bools, strings, lists): the deal and the decisions, replayed by ``from_dict``.

        Compact, as the table item stores it mid-hand (docs/data-model.md): the deck as its 52 card codes
        concatenated, the decisions as one string (``_decisions_text``), ``cancelled`` only when it is.
        """
        return {
            "version": FORMAT_VERSION,
            "seats": list(self._seats),
            "stacks": list(self._starting),
            "button": self.button,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "small_blind": self._small_blind,
            "big_blind": self._big_blind,
            "ante": self._ante,
            "big_blind_ante": self._bb_ante,
            "deck": cards_str(self._deck),
            **({"secret": self._secret.hex()} if self._secret is not None else {}),
            "decisions": self._decisions_text(),
            **({"cancelled": True} if self._cancelled else {}),
        }

    def _decisions_text(self) -> str:
        """The players' decisions in order, space-separated: a letter, the seat, ``:`` and the amount bet or
        raised to, ``*`` when it was a time-out (``f3*``), e.g. ``c6 r7:300 f1 k4 b4:100``."""
        words: list[str] = []
        for record in self._log:
            kind = type(record)
            letter = _LETTERS.get(kind)
            if letter is None:
                continue  # what the dealer did: replayed by dealing again
            if kind is Bet or kind is Raised:
                words.append(f"{letter}{record.seat}:{record.to}")  # type: ignore[union-attr]
            elif kind is Called:
                words.append(f"{letter}{record.seat}")  # type: ignore[union-attr]
            else:
                words.append(f"{letter}{record.seat}{'*' if record.timed_out else ''}")  # type: ignore[union-attr]
        return " ".join(words)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Hand:
        """The hand ``to_dict`` described, rebuilt by dealing again and replaying its decisions."""
        if raw.get("version") != FORMAT_VERSION:
            raise InvalidDeal(f"unknown hand format {raw.get('version')!r}")
        sb_seat = raw["small_blind_seat"]
        hand = cls.deal(
            {int(s): int(c) for s, c in zip(raw["seats"], raw["stacks"], strict=True)},
            button=int(raw["button"]),
            small_blind_seat=None if sb_seat is None else int(sb_seat),
            big_blind_seat=int(raw["big_blind_seat"]),
            small_blind=int(raw["small_blind"]),
            big_blind=int(raw["big_blind"]),
            ante=int(raw["ante"]),
            big_blind_ante=bool(raw["big_blind_ante"]),
            deck=parse_cards(raw["deck"]),
            secret=bytes.fromhex(raw["secret"]) if raw.get("secret") is not None else None,
        )
        for word in raw["decisions"].split():
            letter, seat, amount, timed_out = _DECISION.fullmatch(word).groups()  # type: ignore[union-attr]
            if letter == FOLD_AT_ONCE:
                hand.fold_at_once(int(seat))
            elif timed_out:
                hand.timeout(int(seat))
            else:
                hand.act(_KINDS[letter], int(seat), int(amount) if amount else None)
        if raw.get("cancelled"):
            hand.cancel()
        return hand
