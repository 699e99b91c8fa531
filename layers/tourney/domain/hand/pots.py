"""Main and side pots, and how a pot is split (docs/rules.md, 'Play': side pots, odd chips).

Players are hand indexes here: 0 is the first player clockwise from the
button, the button is last. So "the first winner clockwise from the button"
is the winner with the lowest index.

The pots are built the way pokerkit builds them, so that our histories replay
identically there (tests/property/test_differential_pokerkit.py):

* each distinct contribution level closes a pot; every player who put in at
  least that much adds to it; the players still holding cards who reached the
  level may win it;
* *dead* chips (a big-blind ante) go into the first pot, which every player
  still holding cards may win;
* two pots next to each other that the same players may win are one pot.

>>> build_pots([100, 100, 40], 0, [True, True, True])
[(120, (0, 1, 2)), (120, (0, 1))]
>>> build_pots([100, 100, 40], 0, [True, False, True])
[(120, (0, 2)), (120, (0,))]
>>> split(101, 3)
(35, 33, 33)
"""

from __future__ import annotations

from collections.abc import Sequence


def build_pots(live: Sequence[int], dead: int, eligible: Sequence[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """The main pot, then the side pots: ``(amount, indexes that may win it)``.

    ``live[i]``: chips player ``i`` put in that count for side-pot levels;
    ``dead``: chips that belong to the first pot whatever the levels;
    ``eligible[i]``: player ``i`` still holds cards (not folded or mucked).
    """
    pots: list[tuple[int, tuple[int, ...]]] = []
    amount = dead
    previous = 0
    indexes = range(len(live))
    for level in sorted(set(live)):
        step = level - previous
        winners_here: list[int] = []
        for i in indexes:
            if live[i] >= level:
                amount += step
                if eligible[i]:
                    winners_here.append(i)
        players = tuple(winners_here)
        while pots and pots[-1][1] == players:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, players))
        amount = 0
        previous = level
    return pots


def split(amount: int, ways: int) -> tuple[int, ...]:
    """Equal shares of a pot; the odd chips go to the first winner clockwise from the button (docs/rules.md, 'Play')."""
    share, odd = divmod(amount, ways)
    return (share + odd,) + (share,) * (ways - 1)
