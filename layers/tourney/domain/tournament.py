"""The tournament in play: who is left, places and prizes, rebuys, the tables' sizes (RULES.md, rules 9-15).

:class:`Tournament` is the aggregate that the coordinator (one ordered stream
per tournament) keeps: it does not hold the tables themselves (each table is
its own aggregate, ``table.py``), only what must be decided tournament-wide
after each hand: the places of the players eliminated in it and their prizes,
and which tables give and receive players (``balancing.Balancing``).

How the rules are read here, beyond RULES.md's own words:

* The prizes are fixed from the pool ``max(collected, guarantee)`` once the
  pool can no longer grow: at the start of a freezeout or a Sit&Go, and at the
  end of the last rebuy period of a rebuy tournament (the add-on included,
  since it is offered at that end). The house's overlay is posted then. If a
  place in the money is decided before that (a tiny field busting during the
  rebuy period), the prizes are fixed at that moment and rebuys and add-ons
  close with them, so every cent of the pool has a place it goes to.
* A rebuy or add-on is bought between hands, at the player's own table.
* Eliminations are ordered by the time their hands end; a hand's eliminations
  are placed together (``prizes.place_bust_outs``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tourney.domain.balancing import Balancing, Decision, TableId
from tourney.domain.clock import TournamentClock
from tourney.domain.errors import Conflict, RegistrationClosed
from tourney.domain.fees import Purchase, purchase_entries, split_payment
from tourney.domain.ledger import Entry
from tourney.domain.prizes import (
    BustOut,
    Placing,
    PrizePool,
    overlay_entry,
    payout_for,
    place_bust_outs,
    prize_amounts,
    prize_entry,
)
from tourney.domain.registration import TournamentStatus
from tourney.domain.structure import BlindLevel, TournamentConfig, TournamentFormat


@dataclass(slots=True)
class Contribution:
    """What one entrant paid into this tournament (CONTRACT.md report ``entries``; RULES.md rule 17)."""

    player_id: str
    buy_in_paid: int = 0
    fee_paid: int = 0
    rebuys: int = 0
    addons: int = 0
    pool_paid: int = 0
    """Contributions to the prize pool (after commission)."""
    house_paid: int = 0
    """Entry fees and commission."""

    @property
    def total_paid(self) -> int:
        return self.pool_paid + self.house_paid

    def to_report(self) -> dict[str, Any]:
        return {
            "player": self.player_id,
            "buy_in_paid": self.buy_in_paid,
            "fee_paid": self.fee_paid,
            "rebuys": self.rebuys,
            "addons": self.addons,
            "total_paid": self.total_paid,
        }


@dataclass(frozen=True, slots=True)
class HandEnded:
    """What the end of one hand decided: places and prizes, the ledger entries, the table moves."""

    placings: tuple[Placing, ...]
    entries: tuple[Entry, ...]
    decision: Decision


@dataclass(slots=True)
class Tournament:
    """One tournament from its start to its last prize (RULES.md, rules 9-15, 17)."""

    tournament_id: str
    config: TournamentConfig
    balancing: Balancing
    contributions: dict[str, Contribution]
    status: TournamentStatus = TournamentStatus.RUNNING
    clock: TournamentClock | None = None
    ended_at: datetime | None = None
    remaining: int = 0
    placings: list[Placing] = field(default_factory=list)
    prizes: tuple[int, ...] | None = None
    addons_offered: set[str] = field(default_factory=set)
    eliminated: set[str] = field(default_factory=set)
    hands: int = 0
    moves: int = 0
    final_table_formed: bool = False

    @classmethod
    def start(
        cls,
        tournament_id: str,
        config: TournamentConfig,
        tables: Mapping[TableId, Sequence[str]],
    ) -> Tournament:
        """The tournament as its tables are drawn (RULES.md, rule 5); the clock starts with the first hand."""
        entrants = [player for players in tables.values() for player in players]
        if len(set(entrants)) != len(entrants):
            raise Conflict("a player is seated twice")
        split = split_payment(Purchase.BUY_IN, config.buy_in, config.entry_fee)
        contributions = {
            p: Contribution(p, config.buy_in, config.entry_fee, pool_paid=split.pool, house_paid=split.house)
            for p in entrants
        }
        balancing = Balancing(config.seats_per_table, {t: len(players) for t, players in tables.items()})
        return cls(tournament_id, config, balancing, contributions, remaining=len(entrants))

    # -- queries -------------------------------------------------------------

    @property
    def started_at(self) -> datetime | None:
        """When the first hand was dealt (RULES.md, rule 17: the tournament has started)."""
        return self.clock.started_at if self.clock else None

    @property
    def entrants(self) -> int:
        return len(self.contributions)

    @property
    def pool_collected(self) -> int:
        return sum(c.pool_paid for c in self.contributions.values())

    def level(self, now: datetime) -> BlindLevel:
        """The blind level in play (a function of the clock, DESIGN.md principle 5)."""
        if self.clock is None:
            return self.config.levels[0]
        return self.clock.level_at(self.config.levels, now)

    def level_number(self, now: datetime) -> int:
        return self.level(now).number

    def rebuys_open(self, now: datetime) -> bool:
        return self.prizes is None and self.config.rebuys_open(self.level_number(now))

    def rebuy_period_over(self, now: datetime) -> bool:
        """The last rebuy period has ended (or there never was one): RULES.md rule 17, 3.c."""
        last = self.config.last_rebuy_level
        return last is None or self.prizes is not None or self.level_number(now) > last

    # -- play ----------------------------------------------------------------

    def first_hand_dealt(self, now: datetime) -> None:
        """Start the clock; ``started_at`` is this instant (RULES.md, rule 17)."""
        if self.clock is None:
            self.clock = TournamentClock(now)

    def verify_rebuy(self, player_id: str, stack: int, now: datetime) -> None:
        """A rebuy: during a rebuy period, at or below the starting stack (RULES.md, 'Rebuys and add-ons')."""
        if self.config.format is not TournamentFormat.REBUY or not self.rebuys_open(now):
            raise RegistrationClosed("rebuys are not open")
        if player_id not in self.contributions:
            raise Conflict(f"{player_id} is not in this tournament")
        if player_id in self.eliminated:
            raise Conflict(f"{player_id} was eliminated: a bust-out rebuys before the place is decided")
        if stack > self.config.starting_stack:
            raise Conflict(f"a rebuy needs a stack at or below {self.config.starting_stack} chips")

    def rebuy(self, player_id: str, stack: int, now: datetime) -> tuple[Entry, ...]:
        """Buy the rebuy chips again: the entries to post (the caller posts them, then adds the chips)."""
        self.verify_rebuy(player_id, stack, now)
        return self._purchase(Purchase.REBUY, player_id, now)

    def can_add_on(self, player_id: str, now: datetime) -> bool:
        """The add-on is offered once, after the last rebuy period ends (RULES.md, 'Rebuys and add-ons')."""
        return (
            self.config.add_on is not None
            and self.prizes is None
            and self.config.last_rebuy_level is not None
            and self.level_number(now) > self.config.last_rebuy_level
            and player_id in self.contributions
            and player_id not in self.eliminated
            and player_id not in self.addons_offered
        )

    def add_on(self, player_id: str, now: datetime, *, accept: bool) -> tuple[Entry, ...]:
        """Offer the add-on; the entries to post when accepted (the caller adds ``config.add_on.chips``)."""
        if not self.can_add_on(player_id, now):
            raise RegistrationClosed("the add-on is not offered now")
        self.addons_offered.add(player_id)
        return self._purchase(Purchase.ADD_ON, player_id, now) if accept else ()

    def _purchase(self, purchase: Purchase, player_id: str, now: datetime) -> tuple[Entry, ...]:
        c = self.contributions[player_id]
        number = c.rebuys + 1 if purchase is Purchase.REBUY else c.addons + 1
        key = f"{purchase}:{self.tournament_id}:{player_id}:{number}"
        entries = purchase_entries(
            key, purchase, self.tournament_id, player_id, self.config.buy_in, self.config.entry_fee, now
        )
        split = split_payment(purchase, self.config.buy_in, self.config.entry_fee)
        if purchase is Purchase.REBUY:
            c.rebuys += 1
        else:
            c.addons += 1
        c.pool_paid += split.pool
        c.house_paid += split.house
        return entries

    def fix_prizes(self, now: datetime) -> tuple[Entry, ...]:
        """Fix the prizes from the final pool and post the overlay (RULES.md, Money; rule 10)."""
        if self.prizes is not None:
            return ()
        pool = PrizePool(self.pool_collected, self.config.guarantee)
        self.prizes = prize_amounts(pool.total, payout_for(self.entrants, self.config.payout_percent))
        entry = overlay_entry(self.tournament_id, pool, now)
        return (entry,) if entry else ()

    def prizes_due(self, now: datetime) -> bool:
        """Whether the pool can no longer grow (freezeout, Sit&Go, or rebuys and the add-on over)."""
        if self.prizes is not None:
            return False
        if self.config.format is not TournamentFormat.REBUY:
            return True
        if not self.rebuy_period_over(now):
            return False
        # Busted players leave ``addons_offered``, so this counts the remaining players not yet offered.
        return self.config.add_on is None or len(self.addons_offered) >= self.remaining

    def hand_ended(
        self, table: TableId, busted: Sequence[BustOut], survivors: Sequence[str], now: datetime
    ) -> HandEnded:
        """Place and pay the players out of chips, then decide the tables' moves (RULES.md, rules 9-13, 15).

        ``busted``: players with no chips left after the hand (and no rebuy), in
        seat order clockwise from the button, with the chips they started it
        with. ``survivors``: the players still holding chips at ``table``.
        """
        if self.status is not TournamentStatus.RUNNING:
            raise Conflict(f"tournament {self.tournament_id} is {self.status}")
        self.hands += 1
        entries: list[Entry] = []
        if self.prizes_due(now):
            entries.extend(self.fix_prizes(now))
        placings: tuple[Placing, ...] = ()
        if busted:
            if self.prizes is None and self._reaches_the_money(len(busted)):
                entries.extend(self.fix_prizes(now))
            placings = place_bust_outs(busted, self.remaining, self.prizes or ())
            self.remaining -= len(busted)
            self.addons_offered.difference_update(b.player_id for b in busted)
            self.eliminated.update(b.player_id for b in busted)
        decision = self.balancing.after_hand(table, eliminated=len(busted))
        if decision.finished:
            if len(survivors) != 1:
                raise Conflict(f"the last hand must leave one player with chips, not {list(survivors)}")
            entries.extend(self.fix_prizes(now))
            assert self.prizes is not None
            placings = (*placings, Placing(survivors[0], 1, 1, self.prizes[0]))
            self.remaining = 0
            self.status = TournamentStatus.FINISHED
            self.ended_at = now
        for placing in placings:
            self.placings.append(placing)
            entry = prize_entry(self.tournament_id, placing.player_id, placing.prize, now)
            if entry is not None:
                entries.append(entry)
        self.moves += len(decision.moves)
        if decision.final_table is not None:
            self.final_table_formed = True
        return HandEnded(placings, tuple(entries), decision)

    def _reaches_the_money(self, busted: int) -> bool:
        """Whether the best place these bust-outs take is paid (or they leave only the winner)."""
        best_place = self.remaining - busted + 1
        places_paid = payout_for(self.entrants, self.config.payout_percent).places_paid
        return best_place <= places_paid or best_place == 2
