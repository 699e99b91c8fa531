"""Provably fair deals: the table commits to its shuffled deck at the deal (docs/interfaces.md, 'Provably fair deals').

For position ``i`` (0-51) of the deck, ``card_i`` its two-character code and
``salt_i`` 32 hex characters derived from the hand's secret, 32 bytes drawn
from ``secrets`` at the deal::

    salt_i     = HMAC-SHA256(key=hand_secret, msg=str(i)).hexdigest()[:32]
    leaf_i     = sha256(f"{i}:{card_i}:{salt_i}")        (hex)
    commitment = sha256(leaf_0 + leaf_1 + ... + leaf_51)  (hex)

The table keeps only the secret (32 bytes rather than 52 salts); it never
reaches a player, since it gives every salt, hence a way to check a guess of
a card not shown.

The commitment is published when the hand is dealt. The deck is dealt from
position 0: one card to each player in the hand's order (PHH ``p1 ... pn``:
the first seat after the button first), a second round the same way, then
for each street one burnt card followed by the board cards. So with ``n``
players, player ``k`` (0-based) holds positions ``k`` and ``n + k``, and the
board is at ``2n+1, 2n+2, 2n+3`` (flop), ``2n+5`` (turn), ``2n+7`` (river).

After the hand a player's history reveals ``(i, card_i, salt_i)`` for every
card shown to them (the board, hands shown at showdown, their own) and only
``leaf_i`` for the rest: anyone recomputes the leaves of the revealed cards
and the commitment from all 52 leaves, and a mucked hand stays private. The
operator's export reveals the whole deck and every salt.

The recipe, for anyone checking a history by hand (Python)::

    from hashlib import sha256
    leaves = []
    for i in range(52):
        if i in shown:                        # (card, salt) revealed at position i
            card, salt = shown[i]
            leaves.append(sha256(f"{i}:{card}:{salt}".encode()).hexdigest())
        else:
            leaves.append(hidden[i])          # only the leaf is revealed
    assert sha256("".join(leaves).encode()).hexdigest() == commitment

then check that the cards the history shows sit at the positions above.
``verify_reveal`` and ``verify_dealt`` are exactly that, with the checks spelled out.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tourney.domain.cards import FULL_DECK, Card, card_str

DECK_SIZE = 52
SALT_HEX = 32
SECRET_BYTES = 32
_HEX = re.compile(r"[0-9a-f]+")
_CODES = frozenset(card_str(c) for c in FULL_DECK)
_BOARD_OFFSETS = (1, 2, 3, 5, 7)
"""Board positions after the hole cards: a burnt card before the flop, the turn and the river."""


def draw_hand_secret(rng: random.Random | None = None) -> bytes:
    """A hand's secret, 32 bytes: from ``secrets`` unless a seeded ``rng`` is given (tests, simulations)."""
    if rng is None or isinstance(rng, random.SystemRandom):
        return secrets.token_bytes(SECRET_BYTES)
    return rng.getrandbits(8 * SECRET_BYTES).to_bytes(SECRET_BYTES, "big")


def salts_of(secret: bytes) -> tuple[str, ...]:
    """The 52 salts a hand's secret gives: ``HMAC-SHA256(key=secret, msg=str(i)).hexdigest()[:32]``."""
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a hand's secret is {SECRET_BYTES} bytes, not {len(secret)}")
    return tuple(hmac.digest(secret, message, "sha256").hex()[:SALT_HEX] for message in _POSITIONS)


_POSITIONS: Final = tuple(str(i).encode() for i in range(DECK_SIZE))
"""The message of each position's salt: its number in decimal."""


def leaf(position: int, card: str, salt: str) -> str:
    """``sha256(f"{i}:{card_i}:{salt_i}")`` in hex."""
    return hashlib.sha256(f"{position}:{card}:{salt}".encode()).hexdigest()


def commitment_of_leaves(leaves: Iterable[str]) -> str:
    """``sha256`` of the 52 leaves concatenated, in hex."""
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def commitment(deck: Sequence[Card], salts: Sequence[str]) -> str:
    """The commitment to a shuffled deck with its salts."""
    if len(deck) != DECK_SIZE or len(salts) != DECK_SIZE:
        raise ValueError(f"a commitment covers {DECK_SIZE} cards and {DECK_SIZE} salts")
    return commitment_of_leaves(leaf(i, card_str(c), s) for i, (c, s) in enumerate(zip(deck, salts, strict=True)))


def hole_positions(players: int, index: int) -> tuple[int, int]:
    """The deck positions of the hole cards of the hand's ``index``-th player (0-based, PHH ``p{index+1}``)."""
    if not 0 <= index < players:
        raise ValueError(f"player {index} of {players}")
    return index, players + index


def board_positions(players: int, cards: int) -> tuple[int, ...]:
    """The deck positions of the first ``cards`` board cards."""
    return tuple(2 * players + offset for offset in _BOARD_OFFSETS[:cards])


@dataclass(frozen=True)
class Reveal:
    """What a history shows of the deck: some cards with their salts, the leaves of the others."""

    commitment: str
    cards: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    """Position -> (card code, salt)."""
    leaves: Mapping[int, str] = field(default_factory=dict)
    """Position -> leaf, for the cards not shown."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "commitment": self.commitment,
            "cards": [{"i": i, "card": c, "salt": s} for i, (c, s) in sorted(self.cards.items())],
            "leaves": [{"i": i, "leaf": v} for i, v in sorted(self.leaves.items())],
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Reveal:
        """Read back ``to_dict``; a malformed document is a ``ValueError``."""
        try:
            cards = {int(c["i"]): (str(c["card"]), str(c["salt"])) for c in raw["cards"]}
            leaves = {int(v["i"]): str(v["leaf"]) for v in raw["leaves"]}
            return cls(str(raw["commitment"]), cards, leaves)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a fairness reveal: {error}") from None


def reveal(deck: Sequence[Card], salts: Sequence[str], shown: Iterable[int]) -> Reveal:
    """The reveal of ``deck`` that shows the positions ``shown`` and only the leaves of the rest."""
    open_ = set(shown)
    cards: dict[int, tuple[str, str]] = {}
    leaves: dict[int, str] = {}
    every: list[str] = []
    for i, (card, salt) in enumerate(zip(deck, salts, strict=True)):
        code = card_str(card)
        every.append(leaf(i, code, salt))
        if i in open_:
            cards[i] = (code, salt)
        else:
            leaves[i] = every[-1]
    return Reveal(commitment_of_leaves(every), cards, leaves)


def verify_reveal(r: Reveal) -> list[str]:
    """Why ``r`` does not prove its cards were dealt from the committed deck (empty: it does)."""
    problems: list[str] = []
    positions = set(r.cards) | set(r.leaves)
    if set(r.cards) & set(r.leaves):
        problems.append(f"positions both shown and hidden: {sorted(set(r.cards) & set(r.leaves))}")
    if positions != set(range(DECK_SIZE)):
        problems.append(f"the reveal covers {len(positions)} positions, not 0 to 51")
        return problems
    codes = [code for code, _ in r.cards.values()]
    if len(set(codes)) != len(codes):
        problems.append("a card is shown at two positions")
    for i, (code, salt) in sorted(r.cards.items()):
        if code not in _CODES:
            problems.append(f"position {i}: {code!r} is not a card")
        if len(salt) != SALT_HEX or not _HEX.fullmatch(salt):
            problems.append(f"position {i}: the salt is not {SALT_HEX} hex characters")
    for i, value in sorted(r.leaves.items()):
        if len(value) != 64 or not _HEX.fullmatch(value):
            problems.append(f"position {i}: the leaf is not a sha256 in hex")
    if problems:
        return problems
    leaves = [r.leaves[i] if i in r.leaves else leaf(i, *r.cards[i]) for i in range(DECK_SIZE)]
    if commitment_of_leaves(leaves) != r.commitment:
        problems.append("the cards and leaves do not hash to the commitment")
    return problems


def verify_dealt(r: Reveal, players: int, hole: Mapping[int, Sequence[str]], board: Sequence[str]) -> list[str]:
    """Why the cards a history shows are not where the recipe deals them from the revealed deck (empty: they are).

    ``hole``: the hand's player index (0-based) -> the two cards shown for them; ``board``: the board in order.
    """
    problems: list[str] = []
    expected: list[tuple[int, str, str]] = []
    for index, cards in sorted(hole.items()):
        for position, card in zip(hole_positions(players, index), cards, strict=True):
            expected.append((position, card, f"p{index + 1}'s hole card"))
    for position, card in zip(board_positions(players, len(board)), board, strict=True):
        expected.append((position, card, "the board"))
    for position, card, what in expected:
        found = r.cards.get(position)
        if found is None:
            problems.append(f"{what} {card} is at position {position}, which the history does not reveal")
        elif found[0] != card:
            problems.append(f"{what} is {card}, but position {position} of the committed deck is {found[0]}")
    return problems


__all__ = [
    "DECK_SIZE",
    "SALT_HEX",
    "SECRET_BYTES",
    "Reveal",
    "board_positions",
    "commitment",
    "commitment_of_leaves",
    "draw_hand_secret",
    "hole_positions",
    "leaf",
    "reveal",
    "salts_of",
    "verify_dealt",
    "verify_reveal",
]
