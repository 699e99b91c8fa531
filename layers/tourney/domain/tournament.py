"""The tournament in play: who is left, places and prizes, rebuys, the tables' sizes (docs/rules.md, rules 9-15).

:class:`TournamentState` is the aggregate that the coordinator (one ordered
stream per tournament) keeps: it does not hold the tables themselves (each
table is its own aggregate, ``table.py``) nor the entrants (each entrant's
``Contribution`` is a record of its own, passed in), only what must be decided
tournament-wide after each hand: the places of the players eliminated in it
and their prizes, and which tables give and receive players
(``balancing.Balancing``). It is the one implementation of these rules: the
services call it, and the simulator plays the services.

How the rules are read here, beyond docs/rules.md's own words:

* The prizes are fixed from the pool ``max(collected, guarantee)`` once the
  pool can no longer grow: at the start of a freezeout or a Sit&Go, and in a
  rebuy tournament at the first hand end after the add-on level (the level
  after the last rebuy period, in which the add-on is offered), or after the
  last rebuy period when there is no add-on. The house's overlay is posted then. If a
  place in the money is decided before that (a tiny field busting during the
  rebuy period), the prizes are fixed at that moment and rebuys and add-ons
  close with them, so every cent of the pool has a place it goes to.
* A rebuy or add-on is bought between hands, at the player's own table.
* Eliminations are ordered by the time their hands end; a hand's eliminations
  are placed together (``prizes.place_bust_outs``).
* A disqualified player (docs/rules.md, rule 19) leaves play when their hand ends,
  before that hand's eliminations are placed: they take no place, and the
  places they leave are the worst ones still open, so everyone else finishes
  as if they had busted then. Those places' prizes, if in the money, are
  forfeited from the pool to the tournament's house revenue (``forfeit``
  entries, counted in ``prizes_paid``: the pool then still holds
  ``collected + overlay - prizes_paid``, as compensation reads it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tourney.domain.balancing import Balancing, BalancingDecision, TableId
from tourney.domain.clock import TournamentClock
from tourney.domain.dealing import DealingOrders
from tourney.domain.errors import Conflict, RegistrationClosed
from tourney.domain.fees import Purchase, PurchasePayment, split_payment
from tourney.domain.formats import TournamentFormat
from tourney.domain.hand_for_hand import HandForHand, RoundPlayed
from tourney.domain.ledger import Entry, EntryKind, house_account, pool_account, transfer
from tourney.domain.prizes import (
    BustOut,
    Payout,
    Placing,
    PrizePool,
    overlay_entry,
    payout_for,
    place_bust_outs,
    prize_entry,
    prize_for_place,
    prizes_for,
)
from tourney.domain.recovery import FrozenPlan
from tourney.domain.registration import TournamentStatus
from tourney.domain.structure import BlindLevel, TournamentConfig


@dataclass(slots=True)
class Contribution:
    """What one entrant paid into this tournament (the report's ``entries``, docs/interfaces.md; rule 17)."""

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
class HandSettled:
    """What the end of one hand decided: places and prizes, the ledger entries, the table moves.

    Hand-for-hand (``hand_for_hand.py``): ``held``, the table waits for the round's other tables; ``released``,
    the tables that deal now that a round is complete; ``round_played``, that round.
    """

    placings: tuple[Placing, ...]
    entries: tuple[Entry, ...]
    decision: BalancingDecision
    held: bool = False
    released: tuple[TableId, ...] = ()
    round_played: RoundPlayed | None = None


@dataclass(slots=True)
class TournamentState:
    """The tournament in play as a coordinator stores it: scalars and the balancing state only.

    Bounded for a store (docs/architecture.md, 'Scale to design for'): per-player facts
    (what each entrant paid, their place and prize) are not held here but
    passed in and returned, so each lives in its own record and nothing here
    grows with the field except the balancing state (one counter per table).
    The add-on is read so that it needs no per-player offer list:

    * The add-on is offered during the level that follows the last rebuy
      period (the "add-on level"); each remaining player may buy it once in
      that level. The pool can no longer grow once that level is over, so the
      prizes are fixed at the first hand end after it (at the end of the last
      rebuy period when there is no add-on), or earlier when a place in the
      money is decided.
    * ``pool_collected`` is not kept here (rebuys and add-ons are bought on
      the play path, which never writes the coordinator's state): it is
      passed in when the prizes are fixed, read from the pool's balance,
      which before any prize or overlay equals what the entrants paid in.
    """

    tournament_id: str
    config: TournamentConfig
    balancing: Balancing
    entrants: int
    remaining: int
    status: TournamentStatus = TournamentStatus.RUNNING
    clock: TournamentClock | None = None
    ended_at: datetime | None = None
    prize_pool: int | None = None
    """The pool paid out (``max(collected, guarantee)``), once fixed."""
    collected: int | None = None
    """The entrants' contributions to the pool when the prizes were fixed."""
    prizes_paid: int = 0
    hands: int = 0
    moves: int = 0
    final_table_formed: bool = False
    compensation: FrozenPlan | None = None
    """Once terminated and not restarted: the compensation plan fixed by its first step (docs/rules.md, rule 17.3)."""
    hand_for_hand: HandForHand | None = None
    """The bubble's round, while hand-for-hand holds the tables (``hand_for_hand.py``)."""

    @classmethod
    def start(cls, tournament_id: str, config: TournamentConfig, table_sizes: Mapping[TableId, int]) -> TournamentState:
        """The state as the start draw seats its tables (rule 5); the clock starts with the first hand."""
        balancing = Balancing(config.seats_per_table, dict(table_sizes))
        players = sum(table_sizes.values())
        return cls(tournament_id, config, balancing, entrants=players, remaining=players)

    # -- queries -------------------------------------------------------------

    @property
    def started_at(self) -> datetime | None:
        return self.clock.started_at if self.clock else None

    def payout(self) -> Payout:
        return payout_for(self.entrants, self.config.payout_percent)

    @property
    def prizes(self) -> tuple[int, ...] | None:
        """Every place's prize once fixed (computed from the pool and the payout, not stored)."""
        if self.prize_pool is None:
            return None
        return prizes_for(self.prize_pool, self.entrants, self.config.payout_percent)

    def level(self, now: datetime) -> BlindLevel:
        if self.clock is None:
            return self.config.levels[0]
        return self.clock.level_at(self.config.levels, now)

    def level_number(self, now: datetime) -> int:
        return self.level(now).number

    @property
    def in_play(self) -> bool:
        """Its hand ends are settled: running, or terminated (settled as in play, nothing dealt: docs/rules.md,
        rule 17)."""
        return self.status in (TournamentStatus.RUNNING, TournamentStatus.TERMINATED)

    @property
    def halted(self) -> bool:
        """Terminated: a hand end is still settled, places and prizes included, but no table deals (rule 17)."""
        return self.status is TournamentStatus.TERMINATED

    def rebuys_open(self, now: datetime) -> bool:
        return (
            self.status is TournamentStatus.RUNNING
            and self.prize_pool is None
            and self.config.rebuys_open(self.level_number(now))
        )

    def rebuy_period_over(self, now: datetime) -> bool:
        """The last rebuy period has ended (or there never was one): docs/rules.md rule 17, 3.c."""
        last = self.config.last_rebuy_level
        return last is None or self.prize_pool is not None or self.level_number(now) > last

    def add_on_level(self) -> int | None:
        last = self.config.last_rebuy_level
        return None if self.config.add_on is None or last is None else last + 1

    def prizes_due(self, now: datetime) -> bool:
        """Whether the pool can no longer grow: freezeout, Sit&Go, or past the rebuys and the add-on level."""
        if self.prize_pool is not None:
            return False
        if self.config.format is not TournamentFormat.REBUY:
            return True
        last = self.add_on_level() or self.config.last_rebuy_level
        return last is not None and self.level_number(now) > last

    def dealing_orders(self) -> DealingOrders:
        """When the tables deal their own next hands (``dealing.py``): published after every decision."""
        needed = self.balancing.hand_ends_needed()
        on_the_bubble = self.config.plays_hand_for_hand and self._on_the_bubble()
        on_their_own = (
            self.status is TournamentStatus.RUNNING
            and self.prize_pool is not None
            and self.hand_for_hand is None
            and not on_the_bubble
            and needed is not None
        )
        report = (needed or frozenset()) | frozenset(self.balancing.givers())
        return DealingOrders(self.config.levels, self.clock, on_their_own, report)

    # -- purchases (the entrant's record passed in and changed) ----------------

    def first_hand_dealt(self, now: datetime) -> bool:
        """Start the clock; ``started_at`` is this instant (docs/rules.md, rule 17). True when it started now."""
        if self.clock is None:
            self.clock = TournamentClock(now)
            return True
        return False

    def verify_rebuy(self, contribution: Contribution, owned: int, now: datetime, *, eliminated: bool) -> None:
        """A rebuy: during a rebuy period, at or below the starting stack, not eliminated (docs/rules.md, Rebuys).

        ``owned``: the chips the player owns (``Table.chips_owned``: the stack they started the hand in
        progress with, plus chips already bought in it), never the chips behind.
        """
        if self.config.format is not TournamentFormat.REBUY or not self.rebuys_open(now):
            raise RegistrationClosed("rebuys are not open")
        if eliminated:
            raise Conflict(f"{contribution.player_id} was eliminated")
        if owned > self.config.starting_stack:
            raise Conflict(f"a rebuy needs a stack at or below {self.config.starting_stack} chips")

    def rebuy(
        self, contribution: Contribution, owned: int, now: datetime, *, eliminated: bool, house_shards: int
    ) -> tuple[Entry, ...]:
        """The entries of a rebuy; ``contribution`` is updated (the caller stores it and adds the chips).

        ``house_shards``: the tournament's house revenue shards (``TournamentRecord.house_shards``), so the
        fee goes to the buyer's shard, where the buy-in's fee went and where compensation takes it back.
        """
        self.verify_rebuy(contribution, owned, now, eliminated=eliminated)
        return _purchase(self.tournament_id, self.config, Purchase.REBUY, contribution, now, house_shards)

    def verify_add_on(self, contribution: Contribution, now: datetime, *, eliminated: bool) -> None:
        level = self.add_on_level()
        if level is None or self.prize_pool is not None or self.level_number(now) != level:
            raise RegistrationClosed("the add-on is not offered now")
        if eliminated:
            raise Conflict(f"{contribution.player_id} was eliminated")
        if contribution.addons:
            raise Conflict(f"{contribution.player_id} already bought the add-on")

    def add_on(
        self, contribution: Contribution, now: datetime, *, eliminated: bool, house_shards: int
    ) -> tuple[Entry, ...]:
        """The entries of the add-on; ``contribution`` is updated (the caller adds ``config.add_on.chips``)."""
        self.verify_add_on(contribution, now, eliminated=eliminated)
        return _purchase(self.tournament_id, self.config, Purchase.ADD_ON, contribution, now, house_shards)

    # -- the end of a hand -----------------------------------------------------

    def fix_prizes(self, collected: int, now: datetime) -> tuple[Entry, ...]:
        """Fix the prizes from the final pool and post the overlay (docs/rules.md, Money; rule 10)."""
        if self.prize_pool is not None:
            return ()
        pool = PrizePool(collected, self.config.guarantee)
        self.prize_pool, self.collected = pool.total, collected
        entry = overlay_entry(self.tournament_id, pool, now)
        return (entry,) if entry else ()

    def hand_ended(
        self,
        table: TableId,
        busted: Sequence[BustOut],
        survivors: Sequence[str],
        now: datetime,
        collected: Callable[[], int],
        disqualified: int = 0,
    ) -> HandSettled:
        """Place and pay the players out of chips, then decide the tables' moves (docs/rules.md, rules 9-13, 15).

        ``busted``: players with no chips left after the hand (and no rebuy), in
        seat order clockwise from the button, with the chips they started it
        with. ``survivors``: the players still holding chips at ``table``.
        ``collected`` gives the entrants' contributions to the pool, asked only
        when the prizes are fixed. ``disqualified``: how many disqualified
        players left ``table`` with this hand's end (rule 19; module docstring).
        """
        if not self.in_play:
            raise Conflict(f"tournament {self.tournament_id} is {self.status}")
        self.hands += 1
        entries: list[Entry] = []
        if self.prizes_due(now):
            entries.extend(self.fix_prizes(collected(), now))
        forfeited = self._leave(disqualified, now, collected, entries) if disqualified else ()
        placings: tuple[Placing, ...] = ()
        kept = self.hand_for_hand is not None and self.hand_for_hand.deals_hand_for_hand
        if busted and kept:
            assert self.hand_for_hand is not None
            self.hand_for_hand.keep(table, tuple(busted))  # placed with the round's other eliminations
        elif busted:
            placings = self._place(tuple(busted), now, collected, entries)
        decision = self.balancing.after_hand(table, eliminated=len(busted) + disqualified)
        held: bool = False
        released: tuple[TableId, ...] = ()
        played: RoundPlayed | None = None
        if decision.finished:
            if self.hand_for_hand is not None:  # the last eliminations of a round, then the winner
                placings = (*placings, *self._close_round(now, collected, entries)[0])
                self.hand_for_hand = None
            if len(survivors) != 1:
                raise Conflict(f"the last hand must leave one player with chips, not {list(survivors)}")
            entries.extend(self.fix_prizes(collected(), now))
            prizes = self.prizes
            assert prizes is not None
            placings = (*placings, Placing(survivors[0], 1, 1, prizes[0]))
            self.remaining = 0
            self.status = TournamentStatus.FINISHED
            self.ended_at = now
        else:
            held, released, round_placings, played = self._hand_for_hand(table, decision, now, collected, entries)
            placings = (*placings, *round_placings)
        self._pay(placings, now, entries)
        entries.extend(self._forfeits(forfeited, now))
        self.moves += len(decision.moves)
        if decision.final_table is not None:
            self.final_table_formed = True
        return HandSettled(placings, tuple(entries), decision, held, released, played)

    def _place(
        self, busted: tuple[BustOut, ...], now: datetime, collected: Callable[[], int], entries: list[Entry]
    ) -> tuple[Placing, ...]:
        """Players eliminated together take their places (rules 9, 10); the prizes fixed first if these are paid."""
        if self.prize_pool is None and self._reaches_the_money(len(busted)):
            entries.extend(self.fix_prizes(collected(), now))
        placings = place_bust_outs(busted, self.remaining, self.prizes or ())
        self.remaining -= len(busted)
        return placings

    def _pay(self, placings: Sequence[Placing], now: datetime, entries: list[Entry]) -> None:
        for placing in placings:
            entry = prize_entry(self.tournament_id, placing.player_id, placing.prize, now)
            if entry is not None:
                self.prizes_paid += placing.prize
                entries.append(entry)

    # -- hand-for-hand ---------------------------------------------------------

    def _on_the_bubble(self) -> bool:
        """The next elimination puts everyone left in the money, and more than one table deals."""
        return self.remaining == self.payout().places_paid + 1 and self.balancing.table_count > 1

    def _hand_for_hand(
        self,
        table: TableId,
        decision: BalancingDecision,
        now: datetime,
        collected: Callable[[], int],
        entries: list[Entry],
    ) -> tuple[bool, tuple[TableId, ...], tuple[Placing, ...], RoundPlayed | None]:
        """``table`` finished a hand: whether it waits, the tables released, a round's places (``hand_for_hand.py``)."""
        hfh = self.hand_for_hand
        if hfh is None:
            if not (self.config.plays_hand_for_hand and self.in_play):
                return False, (), (), None
            if not self._on_the_bubble():
                return False, (), (), None
            hfh = self.hand_for_hand = HandForHand()
        dealing = self.balancing.dealing()
        if decision.deals:
            hfh.waiting.add(table)
        hfh.waiting.update(t for t in decision.resumed if t in dealing)  # they join the next round
        if decision.final_table is not None:
            hfh.waiting.update(dealing)
        # In round 0 an elimination is placed at once: the bubble may burst before every table has finished.
        burst = not hfh.deals_hand_for_hand and not self._on_the_bubble()
        if not (hfh.complete(dealing) or burst):
            return decision.deals, (), (), None
        placings, played = self._close_round(now, collected, entries)
        released = tuple(sorted((hfh.waiting & dealing) - {table}))
        if not burst and self._on_the_bubble():
            hfh.next_round(dealing)
        else:
            self.hand_for_hand = None  # the bubble burst, or one table is left
        return False, released, placings, played

    def _close_round(
        self, now: datetime, collected: Callable[[], int], entries: list[Entry]
    ) -> tuple[tuple[Placing, ...], RoundPlayed | None]:
        """The round's eliminations placed together, as if in one hand (rule 10)."""
        hfh = self.hand_for_hand
        if hfh is None or not hfh.deals_hand_for_hand:
            return (), None
        busted = tuple(hfh.busted)
        placings = self._place(hfh.bust_outs(), now, collected, entries) if busted else ()
        played = RoundPlayed(hfh.round, hfh.tables, busted, placings)
        hfh.busted = []
        return placings, played

    def close_round(self, now: datetime, collected: Callable[[], int]) -> tuple[tuple[Placing, ...], tuple[Entry, ...]]:
        """Hand-for-hand stops (a termination): the round's eliminations placed and paid at once, the tables free.

        A restart deals every table at once; hand-for-hand begins again at the next hand's end on the bubble.
        """
        entries: list[Entry] = []
        placings, _ = self._close_round(now, collected, entries)
        self._pay(placings, now, entries)
        self.hand_for_hand = None
        return placings, tuple(entries)

    def disqualified_between_hands(
        self, table: TableId, players: int, now: datetime, collected: Callable[[], int]
    ) -> tuple[tuple[Entry, ...], bool]:
        """Disqualified players left ``table`` with no hand's end (theirs was cancelled: rule 17.1; rule 19).

        As at a hand's end (module docstring): they take the worst places still
        open, unpaid, their prizes forfeited. Returns the entries and whether
        the table is left empty.
        """
        entries: list[Entry] = []
        forfeited = self._leave(players, now, collected, entries)
        entries.extend(self._forfeits(forfeited, now))
        emptied = self.balancing.leave(table, players)
        return tuple(entries), emptied

    def _leave(
        self, players: int, now: datetime, collected: Callable[[], int], entries: list[Entry]
    ) -> tuple[int, ...]:
        """``players`` disqualified leave play: the places they leave (the worst open), the prizes fixed if due."""
        if type(players) is not int or not 0 < players < self.remaining:
            raise Conflict(f"{players!r} disqualified of {self.remaining} remaining")
        if self.prize_pool is None and self._reaches_the_money(players):
            entries.extend(self.fix_prizes(collected(), now))
        forfeited = tuple(range(self.remaining, self.remaining - players, -1))
        self.remaining -= players
        return forfeited

    def _forfeits(self, places: tuple[int, ...], now: datetime) -> list[Entry]:
        found: list[Entry] = []
        for place in places:
            forfeit = self._forfeit(place, now)
            if forfeit is not None:
                self.prizes_paid += forfeit.amount_for(house_account(self.tournament_id))
                found.append(forfeit)
        return found

    def _forfeit(self, place: int, now: datetime) -> Entry | None:
        """The prize of a place a disqualified player left, from the pool to the house's revenue (rule 19)."""
        amount = prize_for_place(self.prizes or (), place)
        return transfer(
            f"forfeit:{self.tournament_id}:{place}",
            EntryKind.FORFEIT,
            self.tournament_id,
            pool_account(self.tournament_id),
            house_account(self.tournament_id),
            amount,
            now,
        )

    def _reaches_the_money(self, busted: int) -> bool:
        best_place = self.remaining - busted + 1
        return best_place <= self.payout().places_paid or best_place == 2

    # -- plain data ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "config": self.config.to_dict(),
            "balancing": self.balancing.to_dict(),
            "entrants": self.entrants,
            "remaining": self.remaining,
            "status": str(self.status),
            "clock": self.clock.to_dict() if self.clock else None,
            "ended_at": self.ended_at.isoformat() if self.ended_at else None,
            "prize_pool": self.prize_pool,
            "collected": self.collected,
            "prizes_paid": self.prizes_paid,
            "hands": self.hands,
            "moves": self.moves,
            "final_table_formed": self.final_table_formed,
            "compensation": self.compensation.to_dict() if self.compensation else None,
            "hand_for_hand": self.hand_for_hand.to_dict() if self.hand_for_hand else None,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TournamentState:
        clock, ended = raw.get("clock"), raw.get("ended_at")
        pool, collected = raw.get("prize_pool"), raw.get("collected")
        compensation, hfh = raw.get("compensation"), raw.get("hand_for_hand")
        return cls(
            tournament_id=str(raw["tournament_id"]),
            config=TournamentConfig.from_dict(raw["config"]),
            balancing=Balancing.from_dict(raw["balancing"]),
            entrants=int(raw["entrants"]),
            remaining=int(raw["remaining"]),
            status=TournamentStatus(raw["status"]),
            clock=TournamentClock.from_dict(clock) if clock else None,
            ended_at=datetime.fromisoformat(ended) if ended else None,
            prize_pool=None if pool is None else int(pool),
            collected=None if collected is None else int(collected),
            prizes_paid=int(raw.get("prizes_paid", 0)),
            hands=int(raw.get("hands", 0)),
            moves=int(raw.get("moves", 0)),
            final_table_formed=bool(raw.get("final_table_formed", False)),
            compensation=FrozenPlan.from_dict(compensation) if compensation else None,
            hand_for_hand=HandForHand.from_dict(hfh) if hfh else None,
        )


def entry_contribution(player_id: str, config: TournamentConfig) -> Contribution:
    """What an entrant has paid at the start: one buy-in (docs/rules.md, Money)."""
    split = split_payment(Purchase.BUY_IN, config.buy_in, config.entry_fee)
    return Contribution(player_id, config.buy_in, config.entry_fee, pool_paid=split.pool, house_paid=split.house)


def _purchase(
    tournament_id: str, config: TournamentConfig, purchase: Purchase, c: Contribution, now: datetime, house_shards: int
) -> tuple[Entry, ...]:
    """A rebuy's or add-on's entries, its fee in the buyer's house shard (docs/rules.md, Rebuys; rule 17 refunds it)."""
    number = c.rebuys + 1 if purchase is Purchase.REBUY else c.addons + 1
    key = f"{purchase}:{tournament_id}:{c.player_id}:{number}"
    payment = PurchasePayment(purchase, tournament_id, c.player_id, config.buy_in, config.entry_fee, house_shards)
    entries = payment.entries(key, now)
    split = payment.split
    if purchase is Purchase.REBUY:
        c.rebuys += 1
    else:
        c.addons += 1
    c.pool_paid += split.pool
    c.house_paid += split.house
    return entries
