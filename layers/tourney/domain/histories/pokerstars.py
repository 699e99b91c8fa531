"""Finished hands as PokerStars hand-history text, the format tracking tools (PokerTracker, Hold'em Manager) import.

One hand reads::

    PokerStars Hand #1001: Tournament #42, $10.00+$1.00 USD Hold'em No Limit - Level II (50/100) - \
2026/07/04 16:05:09 UTC [2026/07/04 12:05:09 ET]
    Table '42 7' 9-max Seat #8 is the button
    Seat 1: Alice (10000 in chips)
    ...
    Alice: posts the ante 10
    Alice: posts small blind 50
    Bob: posts big blind 100
    *** HOLE CARDS ***
    Dealt to Carol [Kc Kd]
    Carol: raises 200 to 300
    ...
    *** FLOP *** [2c 7d 9h]
    *** TURN *** [2c 7d 9h] [Js]
    *** RIVER *** [2c 7d 9h Js] [3h]
    *** SHOW DOWN ***
    Bob: shows [Ah As] (a pair of Aces)
    Bob collected 4560 from main pot
    *** SUMMARY ***
    Total pot 6560 Main pot 4560. Side pot 2000. | Rake 0
    Board [2c 7d 9h Js 3h]
    Seat 1: Alice (small blind) folded before Flop
    ...

Readings fixed here:

* Privacy: only the hero's hole cards are written (``Dealt to``), or none for
  an observer (``hero=None``). Cards a player showed at the showdown are
  public; a mucked hand stays hidden, except the hero's own in the summary.
* ``raises X to Y``: ``Y`` is the player's whole bet in the round and ``X``
  what it adds over the largest bet before it (the posted big blind counts
  before the flop). ``calls X`` is the chips the call adds. A post, call, bet
  or raise that leaves no chips behind ends with ``and is all-in``.
* A decision made by the clock (docs/rules.md, rule 16) is preceded by
  ``<name> has timed out``, as PokerStars writes it.
* Shown hands are written once, in ``*** SHOW DOWN ***`` with their
  description (``tourney.domain.evaluator.describe``), also when they were
  turned up early because a player was all in.
* Pots are the hand's result pots (``HandResult.pots``), so the amounts
  collected are exactly the chips that moved. One pot is ``pot``; several are
  ``main pot`` then ``side pot`` (or ``side pot-1``, ``side pot-2``...); side
  pots are collected first, the last one first, then the main pot.
* Tournament chips carry no rake: ``| Rake 0``.
* The header gives the start of the hand in UTC and, in brackets, in US
  Eastern time (``ET``, as every PokerStars history does; daylight saving
  from the second Sunday of March to the first Sunday of November). Trackers
  read the hand and tournament numbers as digits: give numeric ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from tourney.domain.cards import Card, card_str
from tourney.domain.evaluator import describe, evaluate
from tourney.domain.hand import (
    Bet,
    BetReturned,
    BoardDealt,
    Called,
    Checked,
    Folded,
    Hand,
    HandResult,
    HoleCardsDealt,
    HoleCardsMucked,
    HoleCardsShown,
    Posted,
    PostKind,
    Raised,
    Record,
    Street,
)

CURRENCY_SYMBOLS: Final = {"USD": "$", "EUR": "€", "GBP": "£"}
_STREET_NAMES: Final = {Street.FLOP: "Flop", Street.TURN: "Turn", Street.RIVER: "River"}
_POST_WORDS: Final = {
    PostKind.ANTE: "posts the ante",
    PostKind.SMALL_BLIND: "posts small blind",
    PostKind.BIG_BLIND: "posts big blind",
}
_ROMAN: Final = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                 (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class HandHeader:
    """What the hand itself does not know: where and when it was played.

    ``buy_in`` and ``entry_fee`` are cents (the prize-pool part and the
    house's fee); ``level`` counts from 1; ``table`` is the table's name as
    players see it; ``started_at`` is when the hand was dealt (timezone-aware).
    """

    hand_number: int | str
    tournament_id: int | str
    buy_in: int
    entry_fee: int
    level: int
    table: str
    started_at: datetime
    seats_per_table: int = 9
    currency: str = "USD"


def dumps(hand: Hand, names: Mapping[int, str], header: HandHeader, *, hero: int | None = None) -> str:
    """The finished ``hand`` as PokerStars hand-history text.

    ``names``: each dealt-in seat's player name. ``hero``: the seat whose
    hole cards are written (``Dealt to``), or ``None`` for an observer's view.
    """
    result = hand.result
    if result is None or not hand.is_over:
        raise ValueError("only a finished hand has a history: this one is in play or was cancelled")
    missing = [seat for seat in hand.seats if seat not in names]
    if missing:
        raise ValueError(f"no player name for seats {missing}")
    if hero is not None and hero not in hand.seats:
        hero = None  # the hero sat out this hand: nobody's cards to show
    writer = _Writer(hand, result, names, hero)
    return "\n".join([*_head(hand, names, header), *writer.play(), *writer.summary()]) + "\n"


def dumps_all(histories: Iterable[str]) -> str:
    """Several hands in one file, separated by two blank lines as PokerStars writes them."""
    return "\n\n".join(text.rstrip("\n") + "\n" for text in histories)


def roman(number: int) -> str:
    """A level number as PokerStars writes it.

    >>> roman(1), roman(4), roman(14), roman(49)
    ('I', 'IV', 'XIV', 'XLIX')
    """
    if number < 1:
        raise ValueError(f"levels count from 1, got {number}")
    text = ""
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        text += letters * count
    return text


def money(cents: int, currency: str = "USD") -> str:
    """An amount in cents as PokerStars writes a buy-in.

    >>> money(1000), money(98), money(250, "EUR")
    ('$10.00', '$0.98', '€2.50')
    """
    whole, part = divmod(cents, 100)
    return f"{CURRENCY_SYMBOLS.get(currency, '')}{whole}.{part:02d}"


def eastern(moment: datetime) -> datetime:
    """The US Eastern wall-clock time of an aware ``moment`` (EDT from the second Sunday of March
    at 2:00 to the first Sunday of November at 2:00, EST otherwise).

    >>> eastern(datetime(2026, 7, 4, 16, 5, 9, tzinfo=UTC)).strftime("%Y/%m/%d %H:%M:%S")
    '2026/07/04 12:05:09'
    >>> eastern(datetime(2026, 1, 15, 3, 4, 5, tzinfo=UTC)).strftime("%Y/%m/%d %H:%M:%S")
    '2026/01/14 22:04:05'
    """
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    year = utc.year
    march_first = datetime(year, 3, 1)
    summer_starts = march_first + timedelta(days=(6 - march_first.weekday()) % 7 + 7, hours=2 + 5)
    november_first = datetime(year, 11, 1)
    summer_ends = november_first + timedelta(days=(6 - november_first.weekday()) % 7, hours=2 + 4)
    offset = 4 if summer_starts <= utc < summer_ends else 5
    return utc - timedelta(hours=offset)


def _clock(moment: datetime) -> str:
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"


def _head(hand: Hand, names: Mapping[int, str], header: HandHeader) -> list[str]:
    if header.buy_in or header.entry_fee:
        buy_in = f"{money(header.buy_in, header.currency)}+{money(header.entry_fee, header.currency)} {header.currency}"
    else:
        buy_in = "Freeroll"
    moment = header.started_at.astimezone(UTC)
    lines = [
        f"PokerStars Hand #{header.hand_number}: Tournament #{header.tournament_id}, {buy_in} Hold'em No Limit"
        f" - Level {roman(header.level)} ({hand.small_blind}/{hand.big_blind})"
        f" - {_clock(moment)} UTC [{_clock(eastern(moment))} ET]",
        f"Table '{header.table}' {header.seats_per_table}-max Seat #{hand.button} is the button",
    ]
    starting = hand.starting_stacks
    lines += [f"Seat {seat}: {names[seat]} ({starting[seat]} in chips)" for seat in sorted(hand.seats)]
    return lines


def _cards(cards: Iterable[Card]) -> str:
    return "[" + " ".join(card_str(c) for c in cards) + "]"


class _Writer:
    """Walks the hand's log once, writing the action lines and remembering what the summary needs."""

    def __init__(self, hand: Hand, result: HandResult, names: Mapping[int, str], hero: int | None) -> None:
        self.hand = hand
        self.result = result
        self.names = names
        self.hero = hero
        self.folded_on: dict[int, Street] = {}
        self.put_in_voluntarily: set[int] = set()
        self.stacks = dict(hand.starting_stacks)
        self.bets = dict.fromkeys(hand.seats, 0)
        self.largest = 0
        self.street = Street.PREFLOP
        self.board: list[Card] = []
        self.showdown: list[str] = []
        self.dealt = False

    def play(self) -> list[str]:
        """The action lines, street by street, then the showdown and who collected each pot."""
        lines: list[str] = []
        for record in self.hand.log:
            lines += self._lines_of(record)
        if self.result.showdown:
            lines.append("*** SHOW DOWN ***")
            lines += self.showdown
        lines += self._collected()
        return lines

    def _lines_of(self, record: Record) -> list[str]:
        """The lines one record of the hand's log writes (a showdown's are kept for the showdown)."""
        name = self.names
        if isinstance(record, Posted):
            return self._posted(record)
        if isinstance(record, HoleCardsDealt):
            return self._hole_cards(record)
        if isinstance(record, Folded | Checked):
            return self._folded_or_checked(record)
        if isinstance(record, Called):
            self._put_in(record.seat, record.amount, voluntarily=True)
            return [f"{name[record.seat]}: calls {record.amount}{self._all_in(record.seat)}"]
        if isinstance(record, Bet | Raised):
            return self._bet_or_raised(record)
        if isinstance(record, BetReturned):
            self.stacks[record.seat] += record.amount
            return [f"Uncalled bet ({record.amount}) returned to {name[record.seat]}"]
        if isinstance(record, BoardDealt):
            return self._board_dealt(record)
        if isinstance(record, HoleCardsShown):
            strength = evaluate([*record.cards, *self.result.board])
            self.showdown.append(f"{name[record.seat]}: shows {_cards(record.cards)} ({describe(strength)})")
        elif isinstance(record, HoleCardsMucked):
            self.showdown.append(f"{name[record.seat]}: mucks hand")
        return []

    def _all_in(self, seat: int) -> str:
        return " and is all-in" if self.stacks[seat] == 0 else ""

    def _put_in(self, seat: int, amount: int, *, voluntarily: bool) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        if voluntarily:
            self.put_in_voluntarily.add(seat)

    def _posted(self, record: Posted) -> list[str]:
        if record.post is PostKind.ANTE:
            self.stacks[record.seat] -= record.amount
        else:
            self._put_in(record.seat, record.amount, voluntarily=False)
            self.largest = max(self.largest, self.bets[record.seat])
        return [f"{self.names[record.seat]}: {_POST_WORDS[record.post]} {record.amount}{self._all_in(record.seat)}"]

    def _hole_cards(self, record: HoleCardsDealt) -> list[str]:
        lines = []
        if not self.dealt:
            self.dealt = True
            lines.append("*** HOLE CARDS ***")
        if record.seat == self.hero:
            lines.append(f"Dealt to {self.names[record.seat]} {_cards(record.cards)}")
        return lines

    def _folded_or_checked(self, record: Folded | Checked) -> list[str]:
        player = self.names[record.seat]
        lines = [f"{player} has timed out"] if record.timed_out else []
        if isinstance(record, Folded):
            self.folded_on[record.seat] = self.street
            return [*lines, f"{player}: folds"]
        return [*lines, f"{player}: checks"]

    def _bet_or_raised(self, record: Bet | Raised) -> list[str]:
        self._put_in(record.seat, record.to - self.bets[record.seat], voluntarily=True)
        raised = f"raises {record.to - self.largest} to {record.to}"
        words = f"bets {record.to}" if isinstance(record, Bet) else raised
        self.largest = record.to
        return [f"{self.names[record.seat]}: {words}{self._all_in(record.seat)}"]

    def _board_dealt(self, record: BoardDealt) -> list[str]:
        self.street = record.street
        self.bets = dict.fromkeys(self.hand.seats, 0)
        self.largest = 0
        header = f"*** {self.street.value.upper()} ***" + (f" {_cards(self.board)}" if self.board else "")
        self.board += record.cards
        return [f"{header} {_cards(record.cards)}"]

    def _pot_names(self) -> list[str]:
        count = len(self.result.pots)
        if count == 1:
            return ["pot"]
        if count == 2:
            return ["main pot", "side pot"]
        return ["main pot", *(f"side pot-{k}" for k in range(1, count))]

    def _collected(self) -> list[str]:
        result = self.result
        name = self.names
        if not result.showdown:
            # the one player who did not fold (a walk with no other money in wins a pot of 0)
            winner = next(seat for seat in self.hand.seats if seat not in self.folded_on)
            return [f"{name[winner]} collected {result.won(winner)} from pot", f"{name[winner]}: doesn't show hand"]
        lines = []
        for pot, pot_name in reversed(list(zip(result.pots, self._pot_names(), strict=True))):
            for seat, share in zip(pot.winners, pot.shares, strict=True):
                lines.append(f"{name[seat]} collected {share} from {pot_name}")
        return lines

    def summary(self) -> list[str]:
        hand = self.hand
        result = self.result
        total = sum(pot.amount for pot in result.pots)
        pots = f"Total pot {total}"
        if len(result.pots) > 1:
            pots += "".join(
                f" {pot_name[0].upper()}{pot_name[1:]} {pot.amount}."
                for pot, pot_name in zip(result.pots, self._pot_names(), strict=True)
            )
        lines = ["*** SUMMARY ***", f"{pots} | Rake 0"]
        if result.board:
            lines.append(f"Board {_cards(result.board)}")
        for seat in sorted(hand.seats):
            lines.append(f"Seat {seat}: {self.names[seat]}{self._position(seat)} {self._outcome(seat)}")
        return lines

    def _position(self, seat: int) -> str:
        hand = self.hand
        words = ""
        if seat == hand.button:
            words += " (button)"
        if seat == hand.small_blind_seat:
            words += " (small blind)"
        elif seat == hand.big_blind_seat:
            words += " (big blind)"
        return words

    def _outcome(self, seat: int) -> str:
        result = self.result
        street = self.folded_on.get(seat)
        if street is Street.PREFLOP:
            blind = seat in (self.hand.small_blind_seat, self.hand.big_blind_seat)
            return "folded before Flop" + ("" if blind or seat in self.put_in_voluntarily else " (didn't bet)")
        if street is not None:
            return f"folded on the {_STREET_NAMES[street]}"
        won = result.won(seat)
        if seat in result.shown:
            cards = result.shown[seat]
            words = describe(evaluate([*cards, *result.board]))
            return f"showed {_cards(cards)} and " + (f"won ({won}) with {words}" if won else f"lost with {words}")
        if seat in result.mucked:
            return f"mucked {_cards(self.hand.hole_cards(seat))}" if seat == self.hero else "mucked"
        return f"collected ({won})"
