"""The dealing orders: when a table deals its own next hand, with no one above it (docs/rules.md, 'Who deals').

Most hands end with nothing to decide above the table: nobody busted, no
move or break is due there, nothing holds it. Such a table settles its hand
and deals the next one in the same write (``services/dealer.py``); only the
other hand ends reach the tournament's coordination, which owns places,
prizes, balancing and hand-for-hand (``tournament.TournamentState``).

What a table cannot see for itself, the coordination publishes after each
decision as :class:`DealingOrders`, one small item per tournament that every
hand end reads:

* ``on_their_own``: tables may deal on their own at all. Not while the
  tournament is terminated, before the prizes are fixed (a freezeout fixes
  them at its first deal; a rebuy tournament after its add-on level, so the
  rebuy windows and the add-on stay with the coordination), nor while the
  bubble is played hand-for-hand (or about to be).
* ``report``: tables whose next hand end is needed above them by name: a
  few of the largest tables while they are two or more above the smallest
  (rule 11: the first of them to end its hand gives a player;
  ``Balancing.givers``), the last table left before its final-table redraw,
  the table of the latest elimination while breaking is due (rule 12).
* ``levels`` and ``clock``: the blind level of the hand a table deals.

A table that read orders a moment old deals one hand more than it should at
most; that is the same as a hand already in flight when the orders changed,
which every rule allows for (a move waits for the giving table's hand to
end; hand-for-hand's round 0 lets the hands dealt finish).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tourney.domain.clock import TournamentClock
from tourney.domain.structure import BlindLevel


@dataclass(frozen=True, slots=True)
class DealingOrders:
    """What every table of one tournament needs to deal its own next hand, and when it must not (module docstring)."""

    levels: tuple[BlindLevel, ...]
    clock: TournamentClock | None
    on_their_own: bool = False
    report: frozenset[str] = frozenset()

    def level(self, now: datetime) -> BlindLevel:
        """The blind level in play at ``now`` (the first before the clock starts)."""
        if self.clock is None:
            return self.levels[0]
        return self.clock.level_at(self.levels, now)

    def table_deals_on_its_own(self, table_id: str) -> bool:
        """Whether ``table_id``, after a hand that busted nobody, deals its next hand itself."""
        return self.on_their_own and table_id not in self.report

    def to_dict(self) -> dict[str, Any]:
        """Plain data, compact: a level is ``[number, small blind, big blind, ante, big-blind ante, minutes]``."""
        return {
            "levels": [
                [lv.number, lv.small_blind, lv.big_blind, lv.ante, int(lv.big_blind_ante), lv.minutes]
                for lv in self.levels
            ],
            "clock": self.clock.to_dict() if self.clock is not None else None,
            "on_their_own": self.on_their_own,
            "report": sorted(self.report),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> DealingOrders:
        clock = raw.get("clock")
        return cls(
            levels=_levels(raw["levels"]),
            clock=TournamentClock.from_dict(clock) if clock is not None else None,
            on_their_own=bool(raw.get("on_their_own", False)),
            report=frozenset(str(t) for t in raw.get("report", ())),
        )


def _levels(raw: Sequence[Sequence[int]]) -> tuple[BlindLevel, ...]:
    return tuple(
        BlindLevel(int(n), int(sb), int(bb), int(ante), bool(bba), int(minutes))
        for n, sb, bb, ante, bba, minutes in raw
    )
