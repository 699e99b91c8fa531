"""Hand histories in the Poker Hand History format (PHH), as pokerkit 0.7.7 reads them.

How our positions become PHH's (pokerkit's ``State`` decides who posts and who
acts from the player order alone):

* ``p1`` is the first player clockwise after the button and the button is
  last, which is also the hand's own order (``Hand.seats``). So ``p1`` acts
  first after the flop, and the showdown's odd chip goes to the lowest ``pN``.
* ``blinds_or_straddles`` puts the small blind and the big blind at their
  players' places. Players who sat down between the button and the blinds
  (docs/rules.md, rule 8) post 0 and come before them; with no small blind
  (rule 7) only the big blind posts. Pokerkit opens the betting after the
  largest blind, as we do; when the blinds posted nothing (all their chips
  went to the antes) both open after the button, so every hand we write
  replays in pokerkit, none left out (``tests/property/test_differential_pokerkit.py``).
* Heads-up pokerkit reads ``antes`` and ``blinds_or_straddles`` reversed
  (entry 0 is what ``p2`` posts): ``p1`` is the big blind, ``p2`` the button
  posting the small blind, written ``[small blind, big blind]``.
* Antes: every player's ante, with ``ante_trimming_status = true`` (an ante
  counts towards side pots like a bet); a big-blind ante is only the big
  blind's entry, with ``ante_trimming_status = false`` (dead money in the
  main pot).
* Actions are written as pokerkit writes them: ``d dh pN ????`` (or the real
  cards when asked), ``d db`` for each board card or flop, ``pN f``, ``pN cc``
  (check or call), ``pN cbr X`` (bet or raise to X), ``pN sm CARDS`` (shows)
  and ``pN sm`` (mucks). Burnt cards are not written. A decision made by a
  time-out (docs/rules.md, rule 16) carries the comment ``# timeout``.

``dumps`` writes one hand; ``dumps_all`` joins several, one ``[k]`` table each
(pokerkit's ``HandHistory.loads_all`` reads it back).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from tourney.domain.cards import cards_str
from tourney.domain.hand import (
    Bet,
    BoardDealt,
    Called,
    Checked,
    Folded,
    Hand,
    HoleCardsDealt,
    HoleCardsMucked,
    HoleCardsShown,
    Raised,
)

FieldValue = str | int | bool | list[int] | list[str] | None

PHH_FIELDS: Final = frozenset(
    {
        "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country", "time",
        "time_zone", "day", "month", "year", "hand", "level", "seats", "seat_count", "table", "players",
        "winnings", "currency", "currency_symbol", "time_limit", "time_banks",
    }
)  # fmt: skip
"""Optional PHH fields a caller may add; any other key must start with ``_`` (a user field)."""

_BARE_KEY: Final = re.compile(r"^[A-Za-z0-9_-]+$")


def positions(hand: Hand) -> dict[str, FieldValue]:
    """The fields that place each ``pN`` at the table (docs/interfaces.md, 'The PHH export').

    ``seats[i]`` is the seat of ``p(i+1)``; ``_small_blind`` is 0 when there was no small blind.
    """
    return {
        "seats": list(hand.seats),
        "_button": hand.button,
        "_small_blind": hand.small_blind_seat or 0,
        "_big_blind": hand.big_blind_seat,
    }


def forced_bets(hand: Hand) -> tuple[list[int], list[int]]:
    """The ``antes`` and ``blinds_or_straddles`` lists, in pokerkit's order for this hand."""
    seats = hand.seats
    n = len(seats)
    heads_up = n == 2

    def place(seat: int) -> int:
        i = seats.index(seat)
        return 1 - i if heads_up else i

    blinds = [0] * n
    if hand.small_blind_seat is not None:
        blinds[place(hand.small_blind_seat)] = hand.small_blind
    blinds[place(hand.big_blind_seat)] = hand.big_blind
    if hand.big_blind_ante:
        antes = [0] * n
        antes[place(hand.big_blind_seat)] = hand.ante
    else:
        antes = [hand.ante] * n
    return antes, blinds


def actions(hand: Hand, *, hole_cards: bool = False) -> list[str]:
    """The ``actions`` lines of the hand so far; hole cards are ``????`` unless ``hole_cards``."""
    player = {seat: f"p{i + 1}" for i, seat in enumerate(hand.seats)}
    lines: list[str] = []
    for record in hand.log:
        if isinstance(record, Folded):
            lines.append(f"{player[record.seat]} f" + (" # timeout" if record.timed_out else ""))
        elif isinstance(record, Checked):
            lines.append(f"{player[record.seat]} cc" + (" # timeout" if record.timed_out else ""))
        elif isinstance(record, Called):
            lines.append(f"{player[record.seat]} cc")
        elif isinstance(record, Bet | Raised):
            lines.append(f"{player[record.seat]} cbr {record.to}")
        elif isinstance(record, HoleCardsDealt):
            lines.append(f"d dh {player[record.seat]} {cards_str(record.cards) if hole_cards else '????'}")
        elif isinstance(record, BoardDealt):
            lines.append(f"d db {cards_str(record.cards)}")
        elif isinstance(record, HoleCardsShown):
            lines.append(f"{player[record.seat]} sm {cards_str(record.cards)}")
        elif isinstance(record, HoleCardsMucked):
            lines.append(f"{player[record.seat]} sm")
    return lines


def dumps(hand: Hand, fields: Mapping[str, FieldValue] | None = None, *, hole_cards: bool = False) -> str:
    """The hand as one PHH document (TOML); ``finishing_stacks`` once it is over.

    ``fields``: optional PHH fields (``event``, ``table``, ``hand``,
    ``seat_count``, ``players``, ...) and user fields (``_level``, ...), added
    to ``positions(hand)``. ``hole_cards``: write every player's cards in the
    deal lines (a private history), not ``????``.
    """
    antes, blinds = forced_bets(hand)
    per_player_ante = hand.ante > 0 and not hand.big_blind_ante
    lines = [
        "variant = 'NT'",
        f"ante_trimming_status = {_value(per_player_ante)}",
        f"antes = {_value(antes)}",
        f"blinds_or_straddles = {_value(blinds)}",
        f"min_bet = {hand.big_blind}",
        f"starting_stacks = {_value([hand.starting_stacks[s] for s in hand.seats])}",
        f"actions = {_value(actions(hand, hole_cards=hole_cards))}",
    ]
    result = hand.result
    if result is not None:
        lines.append(f"finishing_stacks = {_value([result.finishing_stacks[s] for s in hand.seats])}")
    extra = positions(hand) | dict(fields or {})
    for key, value in extra.items():
        if key not in PHH_FIELDS and not key.startswith("_"):
            raise ValueError(f"{key!r} is not a PHH field: name a user field '_{key}'")
        if not _BARE_KEY.match(key):
            raise ValueError(f"{key!r} is not a bare TOML key")
        if value is not None:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


def deck_fields(hand: Hand) -> dict[str, FieldValue]:
    """The operator's export of the whole deck (docs/interfaces.md, 'Provably fair deals'); none without a commitment.

    ``_commitment``; ``_deck``, the 52 codes in dealing order concatenated; ``_salts``, comma-separated.
    """
    if hand.salts is None or hand.commitment is None:
        return {}
    return {"_commitment": hand.commitment, "_deck": cards_str(hand.deck), "_salts": ",".join(hand.salts)}


@dataclass(frozen=True)
class DealtCards:
    """The cards a PHH document shows: ``hole`` by player index (0-based) where known, and the board in order."""

    players: int
    hole: dict[int, tuple[str, str]]
    board: tuple[str, ...]


def dealt_cards(document: Mapping[str, Any]) -> DealtCards:
    """What ``document`` (one PHH hand as ``tomllib`` reads it) shows of the cards: ``d dh``, ``sm`` and ``d db``.

    A malformed document is a ``ValueError``.
    """
    try:
        players = len(document["starting_stacks"])
        lines = [str(line).split("#")[0].split() for line in document["actions"]]
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a PHH hand: {error}") from None
    hole: dict[int, tuple[str, str]] = {}
    board: list[str] = []
    for words in lines:
        if words[:2] == ["d", "dh"] and len(words) == 4 and words[3] != "????":
            hole[_player_index(words[2], players)] = _two(words[3])
        elif len(words) == 3 and words[1] == "sm":
            hole[_player_index(words[0], players)] = _two(words[2])
        elif words[:2] == ["d", "db"] and len(words) == 3:
            text = words[2]
            board.extend(text[i : i + 2] for i in range(0, len(text), 2))
    return DealtCards(players, hole, tuple(board))


def _player_index(word: str, players: int) -> int:
    if not re.fullmatch(r"p[1-9][0-9]?", word) or not 1 <= int(word[1:]) <= players:
        raise ValueError(f"{word!r} is not one of p1 to p{players}")
    return int(word[1:]) - 1


def _two(text: str) -> tuple[str, str]:
    if len(text) != 4:
        raise ValueError(f"{text!r} is not two cards")
    return text[:2], text[2:]


def dumps_all(documents: Iterable[str]) -> str:
    """Several ``dumps`` documents in one file, numbered ``[1]``, ``[2]``... as pokerkit's ``dumps_all``."""
    return "\n".join(f"[{k}]\n{text}" for k, text in enumerate(documents, start=1))


def _value(value: FieldValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as a PHH value")
