"""Hand-for-hand at the bubble (docs/rules.md, rules 9, 10: "Hand-for-hand").

From the moment the next elimination would put every player left in the
money (``remaining == places paid + 1``) while more than one table plays,
every table plays one hand and waits until every table has finished it:

* **Round 0** is the hands already dealt when it begins: each table finishes
  its hand and waits. Their eliminations are placed as usual, in the order
  their hands end (they were not dealt hand-for-hand).
* **Rounds 1, 2, ...** start when every table waits: all are dealt at once.
  The players eliminated in a round, at any tables, are placed together when
  its last table finishes, as if in one hand (rule 10: more chips at the start
  of that hand, the better place; equal chips share the places' prizes, the
  odd cents one each in the order the hands ended, then clockwise from each
  table's button).
* It ends when the bubble has burst (``remaining <= places paid``) or one
  table is left; the tables waiting are dealt at once.

A table that starts to deal during a round (a lone player's table that gets
players, say) waits for the next round. A termination places a round's
eliminations at once (``TournamentState.close_round``); after a restart the
tables' first hands are round 0 again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tourney.domain.balancing import TableId
from tourney.domain.prizes import BustOut, Placing


@dataclass(frozen=True, slots=True)
class RoundBust:
    """A player eliminated in a hand-for-hand hand, waiting for the round's end to be placed."""

    player_id: str
    table: TableId
    starting_stack: int


@dataclass(frozen=True, slots=True)
class RoundPlayed:
    """A round that completed: its number, the tables that played it, its eliminations and their places."""

    round: int
    tables: int
    busted: tuple[RoundBust, ...]
    placings: tuple[Placing, ...]

    def to_report(self) -> dict[str, Any]:
        """``hand_for_hand_rounds``'s item (docs/interfaces.md, ``tourney simulate``)."""
        place = {p.player_id: p.place for p in self.placings}
        return {
            "round": self.round,
            "tables": self.tables,
            "busted": [
                {"player": b.player_id, "table": b.table, "start_chips": b.starting_stack, "place": place[b.player_id]}
                for b in self.busted
            ],
        }


@dataclass(slots=True)
class HandForHand:
    """The round in play and the tables that have finished it (``waiting``), with its eliminations so far."""

    round: int = 0
    waiting: set[TableId] = field(default_factory=set)
    busted: list[RoundBust] = field(default_factory=list)
    tables: int = 0
    """Tables dealt this round (for the report)."""

    @property
    def deals_hand_for_hand(self) -> bool:
        """Whether this round's hands were dealt hand-for-hand (round 0's were dealt before it began)."""
        return self.round >= 1

    def keep(self, table: TableId, busted: tuple[BustOut, ...]) -> None:
        """``busted`` at ``table`` are placed at the round's end."""
        self.busted.extend(RoundBust(b.player_id, table, b.starting_stack) for b in busted)

    def bust_outs(self) -> tuple[BustOut, ...]:
        return tuple(BustOut(b.player_id, b.starting_stack) for b in self.busted)

    def complete(self, dealing: set[TableId]) -> bool:
        """Every table that deals has finished this round's hand (``waiting`` keeps only tables still in play)."""
        self.waiting &= dealing
        return dealing <= self.waiting

    def next_round(self, dealing: set[TableId]) -> None:
        self.round += 1
        self.waiting = set()
        self.busted = []
        self.tables = len(dealing)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "waiting": sorted(self.waiting),
            "busted": [[b.player_id, b.table, b.starting_stack] for b in self.busted],
            "tables": self.tables,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> HandForHand:
        return cls(
            round=int(raw["round"]),
            waiting={str(t) for t in raw.get("waiting", ())},
            busted=[RoundBust(str(p), str(t), int(s)) for p, t, s in raw.get("busted", ())],
            tables=int(raw.get("tables", 0)),
        )
