"""The tournament in play for rule tests: a ``TournamentState`` and the per-player records a store would hold.

The services keep ``TournamentState`` (bounded) in the coordinator's record
and each entrant's ``Contribution`` and place in the entrant's own record
(``services/records.py``). Rule tests that need no tables, queues or clock
hold those records here instead: this helper only looks them up and passes
them in. Every decision (who may rebuy or take the add-on, when the prizes
are fixed, places and prizes, the tables' moves) is ``TournamentState``'s.

* ``eliminated`` is read as ``EntrantRecord.eliminated`` reads it: placed,
  and not first.
* ``collected`` (asked when the prizes are fixed) is the sum of what the
  entrants paid into the pool, which is what the coordinator reads from the
  pool's balance before any prize or overlay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from tourney.domain.errors import Conflict
from tourney.domain.ledger import Entry
from tourney.domain.prizes import BustOut, Placing
from tourney.domain.structure import TournamentConfig
from tourney.domain.tournament import Contribution, HandSettled, TournamentState, entry_contribution


@dataclass
class InPlay:
    """``TournamentState`` with the entrants' records held beside it (as the coordinator's and entrants' records)."""

    state: TournamentState
    contributions: dict[str, Contribution]
    placings: list[Placing] = field(default_factory=list)
    house_shards: int = 1

    @classmethod
    def start(cls, tournament_id: str, config: TournamentConfig, tables: Mapping[str, Sequence[str]]) -> InPlay:
        """The state as the start draw seats ``tables`` (table -> players), each entrant with one buy-in paid."""
        state = TournamentState.start(tournament_id, config, {t: len(players) for t, players in tables.items()})
        contributions = {p: entry_contribution(p, config) for players in tables.values() for p in players}
        return cls(state, contributions)

    # -- the records -----------------------------------------------------------

    @property
    def pool_collected(self) -> int:
        return sum(c.pool_paid for c in self.contributions.values())

    def eliminated(self, player_id: str) -> bool:
        return any(p.player_id == player_id and p.place > 1 for p in self.placings)

    # -- delegated to TournamentState ------------------------------------------

    def verify_rebuy(self, player_id: str, stack: int, now: datetime) -> None:
        contribution = self.contributions[player_id]
        self.state.verify_rebuy(contribution, stack, now, eliminated=self.eliminated(player_id))

    def rebuy(self, player_id: str, stack: int, now: datetime) -> tuple[Entry, ...]:
        contribution = self.contributions[player_id]
        return self.state.rebuy(
            contribution, stack, now, eliminated=self.eliminated(player_id), house_shards=self.house_shards
        )

    def can_add_on(self, player_id: str, now: datetime) -> bool:
        """``TournamentState.verify_add_on`` as a yes or no (pokerkit's ``can_x``)."""
        try:
            self.state.verify_add_on(self.contributions[player_id], now, eliminated=self.eliminated(player_id))
        except Conflict:  # RegistrationClosed (not offered now) or Conflict (eliminated, already bought)
            return False
        return True

    def add_on(self, player_id: str, now: datetime) -> tuple[Entry, ...]:
        contribution = self.contributions[player_id]
        return self.state.add_on(
            contribution, now, eliminated=self.eliminated(player_id), house_shards=self.house_shards
        )

    def hand_ended(self, table: str, busted: Sequence[BustOut], survivors: Sequence[str], now: datetime) -> HandSettled:
        ended = self.state.hand_ended(table, busted, survivors, now, lambda: self.pool_collected)
        self.placings.extend(ended.placings)
        return ended
