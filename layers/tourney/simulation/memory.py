"""A whole tournament, in memory, with bot players: ``tourney simulate --via memory``.

A discrete-event simulation on the tournament clock. Every table is always in
one of three states: playing a hand (its next event is the next decision),
between hands (its next event is the end of the hand: places, prizes, moves,
then the next deal), or waiting (a lone player with nowhere to go). Each
decision takes the time a person takes (a couple of seconds, sometimes a
time-out), so hands last like online hands and the blind levels, a function
of the clock, rise at the right pace.

The simulation uses only the domain: registration and money
(``registration``, ``ledger``), the draw (``seating``), tables and hands
(``table``), and the tournament's decisions after each hand
(``tournament``, ``balancing``, ``prizes``) and on termination
(``recovery``). Randomness comes from one seeded ``random.Random`` so a run
replays exactly; production shuffles with ``secrets`` (``cards.shuffled_deck``).

After every hand the simulation checks the invariants of issue 3: chips are
conserved at the table that played it, tables stay within one player of each
other once they are between hands, and a table whose players did not change
sees its big blind move to the next active seat. The ledger's money invariant
is checked after every hand in fields up to ``full_check_players`` and every
``check_every`` hands above that (it costs a pass over the ledger), and
always at the end.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from tourney.domain.balancing import seat_moves
from tourney.domain.blinds import first_active_after
from tourney.domain.cards import shuffled_deck
from tourney.domain.hand import ActionKind, Hand
from tourney.domain.histories import phh
from tourney.domain.ledger import Ledger, deposit, player_account, pool_account
from tourney.domain.prizes import BustOut, payout_for
from tourney.domain.recovery import Contribution as RecoveryContribution
from tourney.domain.recovery import Stack, Termination, compensate, compensation_entries
from tourney.domain.registration import RegistrationBook, TournamentStatus
from tourney.domain.seating import draw_final_table, draw_start
from tourney.domain.structure import TournamentConfig, TournamentFormat, rebuy_period_for_minutes
from tourney.domain.table import Table
from tourney.domain.tournament import Tournament
from tourney.simulation.bots import Bot, Move, Situation, pick_style

EPOCH = datetime(2026, 1, 1, 18, 0, tzinfo=UTC)
"""Where simulated tournaments start: a fixed instant, so reports replay exactly."""

DEAL_SECONDS = 6.0
POT_SECONDS = 3.0
SHOWDOWN_SECONDS = 4.0
TIMEOUT_CHANCE = 0.01
COME_BACK_CHANCE = 0.3
RESTART_WINDOW = timedelta(minutes=20)
"""Restarting is tried this long before the players are compensated (RULES.md, rule 17.2)."""


class SimulationError(AssertionError):
    """An invariant failed: a defect, never a player's mistake."""


class _Phase(StrEnum):
    ACT = "act"
    END = "end"


@dataclass(frozen=True)
class SimulationOptions:
    players: int
    seed: int
    format: TournamentFormat = TournamentFormat.FREEZEOUT
    buy_in: int = 1_000
    entry_fee: int = 100
    guarantee: int = 0
    seats: int = 9
    level_minutes: int | None = None
    rebuy_minutes: int | None = None
    terminate_at: float | None = None
    restart: bool = True
    restart_after_minutes: float = 5.0
    phh_dir: str | None = None
    full_check_players: int = 1_000
    check_every: int = 100


@dataclass(frozen=True)
class PlayedHand:
    """A finished hand and what a history needs beside it (for the demo and PokerStars text)."""

    table_id: str
    hand: Hand
    players: dict[int, str]
    level: int
    dealt_at: datetime


@dataclass
class SimulationResult:
    report: dict[str, Any]
    ledger: Ledger
    tournament: Tournament | None
    phh_files: dict[str, str]


class Simulation:
    """One tournament run to its end. ``run()`` returns the CONTRACT.md report."""

    def __init__(self, options: SimulationOptions, progress: Callable[[int, int], None] | None = None) -> None:
        self.o = options
        self.rng = random.Random(options.seed)
        self.progress = progress or (lambda remaining, total: None)
        self.ledger = Ledger()
        self.tournament_id = f"sim-{options.format}-{options.players}-{options.seed}"
        self.config = self._config()
        self.players = [f"p{i:06d}" for i in range(1, options.players + 1)]
        self.bots = {p: Bot(pick_style(self.rng), random.Random(self.rng.random())) for p in self.players}
        self.tables: dict[str, Table] = {}
        self.events: list[tuple[float, int, str, _Phase]] = []
        self._order = 0
        self.tournament: Tournament | None = None
        self.phh: dict[str, list[str]] = {}
        self.termination: dict[str, Any] | None = None
        self.checks = 0
        self.refunds_at_start: tuple[str, ...] = ()
        self.tables_at_start = 0
        self._hand_levels: dict[str, int] = {}
        self._last_active: dict[str, dict[int, str]] = {}
        self._ending: set[str] = set()
        self._terminated_at = 0.0
        self._dealt_at: dict[str, float] = {}
        self.last_hand: PlayedHand | None = None

    # -- set-up --------------------------------------------------------------

    def _config(self) -> TournamentConfig:
        o = self.o
        changes: dict[str, Any] = {"seats_per_table": o.seats, "guarantee": o.guarantee}
        if o.format is TournamentFormat.SNG:
            changes["max_players"] = o.players
        else:
            changes["max_players"] = max(o.players, 2)
        if o.level_minutes:
            changes["level_minutes"] = o.level_minutes
        config = TournamentConfig.for_format(o.format, buy_in=o.buy_in, entry_fee=o.entry_fee, **changes)
        if o.format is TournamentFormat.REBUY and o.rebuy_minutes:
            config = config.with_changes(
                rebuy_periods=(rebuy_period_for_minutes(o.rebuy_minutes, config.level_minutes),)
            )
        return config

    def _register_everyone(self) -> tuple[str, ...]:
        o = self.o
        announce = EPOCH - timedelta(hours=2)
        start_at = None if o.format is TournamentFormat.SNG else EPOCH
        book = RegistrationBook(self.tournament_id, self.config, announce_at=announce, start_at=start_at)
        self.book = book
        purchases = 1 + (6 if o.format is TournamentFormat.REBUY else 0)
        for i, player in enumerate(self.players):
            at = announce + timedelta(seconds=i % 3600)
            self.ledger.post(deposit(f"deposit:{player}", player, self.config.entry_cost * purchases + 500, at))
            book.register(player, at, self.ledger)
        if o.format is TournamentFormat.SNG:
            return book.players
        closing = book.start(EPOCH, self.ledger)
        self.refunds_at_start = closing.refunded
        if closing.status is TournamentStatus.CANCELLED:
            return ()
        return closing.players

    def _seat_tables(self, entrants: tuple[str, ...], now: float) -> None:
        seatings = draw_start(entrants, self.config.seats_per_table, self.rng)
        self.tables_at_start = len(seatings)
        for seating in seatings:
            table = Table(seating.table, self.config.seats_per_table)
            for seat, player in seating.seats:
                table.seat_player(player, seat, self.config.starting_stack)
            if len(table.active) >= 2:
                table.draw_button(rng=self.rng)  # a lone player's table draws when a second player arrives
            self.tables[str(seating.table)] = table
        self.tournament = Tournament.start(self.tournament_id, self.config, {str(s.table): s.players for s in seatings})
        for table_id in self.tables:
            self._deal(table_id, now)

    # -- the event loop --------------------------------------------------------

    def _at(self, seconds: float) -> datetime:
        return EPOCH + timedelta(seconds=seconds)

    def _schedule(self, when: float, table_id: str, phase: _Phase) -> None:
        self._order += 1
        heapq.heappush(self.events, (when, self._order, table_id, phase))

    def run(self) -> SimulationResult:
        entrants = self._register_everyone()
        if len(entrants) < self.config.min_players:
            return self._finish(None)
        self._seat_tables(entrants, 0.0)
        assert self.tournament is not None
        terminate_at: float | None = None
        while self.events and self.tournament.status is TournamentStatus.RUNNING:
            when, _, table_id, phase = heapq.heappop(self.events)
            if terminate_at is None and self.o.terminate_at is not None:
                terminate_at = self._started_seconds() + self.o.terminate_at * 60
            if terminate_at is not None and when > terminate_at and self.termination is None:
                heapq.heappush(self.events, (when, 0, table_id, phase))
                self._terminated_at = terminate_at
                self._terminate(terminate_at)
                if not self.o.restart:
                    break
                continue
            if table_id not in self.tables:
                continue
            if phase is _Phase.ACT:
                self._act(table_id, when)
            else:
                self._end_hand(table_id, when)
        return self._finish(self.tournament)

    def _started_seconds(self) -> float:
        assert self.tournament is not None and self.tournament.started_at is not None
        return (self.tournament.started_at - EPOCH).total_seconds()

    def _deal(self, table_id: str, now: float) -> None:
        assert self.tournament is not None
        table = self.tables[table_id]
        if len(table.active) < 2 or table.hand_in_progress or table_id in self._ending:
            return  # waiting for players, or already dealt (a table both resumed and formed as the final one)
        at = self._at(now)
        if table.button_seat is None:
            table.draw_button(rng=self.rng)  # a table that waited with one player deals its first hand (rule 6)
        self.tournament.first_hand_dealt(at)
        level = self.tournament.level(at)
        hold = self.config.format is TournamentFormat.REBUY and self.tournament.rebuys_open(at)
        before = dict(table.active)
        previous = table.last_positions
        dealt = table.start_hand(level, shuffled_deck(self.rng), hold_busted_seats=hold)
        self._check_big_blind_moved(table_id, previous, before, dealt.positions.big_blind.seat)
        self._hand_levels[table_id] = level.number
        self._dealt_at[table_id] = now
        assert table.hand is not None
        self._next_event(table_id, table.hand, now + DEAL_SECONDS)

    def _act(self, table_id: str, now: float) -> None:
        table = self.tables[table_id]
        hand = table.hand
        assert hand is not None and not hand.is_over
        waiting = table.awaiting(normal=self.config.decision_seconds, when_away=self.config.away_decision_seconds)
        assert waiting is not None
        stays_away = waiting.away and self.rng.random() > COME_BACK_CHANCE
        if stays_away or self.rng.random() < TIMEOUT_CHANCE:
            table.timeout(waiting.seat, hand=waiting.hand, seq=waiting.seq)
            elapsed = float(waiting.seconds)
        else:
            self._bot_acts(table, hand, self.bots[waiting.player], waiting.player, waiting.hand, waiting.seq)
            elapsed = round(self.rng.uniform(1.0, 4.5), 3)
        self._next_event(table_id, hand, now + elapsed)

    def _next_event(self, table_id: str, hand: Hand, when: float) -> None:
        """The next decision, or the end of the hand: the table is between hands from the moment it is over."""
        if not hand.is_over:
            self._schedule(when, table_id, _Phase.ACT)
            return
        self._ending.add(table_id)
        showdown = SHOWDOWN_SECONDS if len(hand.board) == 5 else 0.0
        self._schedule(when + showdown + POT_SECONDS, table_id, _Phase.END)

    def _bot_acts(self, table: Table, hand: Hand, bot: Bot, player: str, hand_no: int, seq: int) -> None:
        options = hand.options()
        assert options is not None
        seat = options.seat
        seen = Situation(
            hole=hand.hole_cards(seat),
            board=hand.board,
            stack=options.stack,
            to_call=options.to_call,
            pot=hand.pot,
            min_raise_to=options.min_raise_to,
            max_raise_to=options.max_raise_to,
            big_blind=hand.big_blind,
        )
        choice = bot.decide(seen)
        if choice.move is Move.RAISE:
            kind = ActionKind.BET if options.bet == 0 and options.to_call == 0 else ActionKind.RAISE
            table.act(player, kind, choice.amount, hand=hand_no, seq=seq)
        elif choice.move is Move.CHECK and options.can_check:
            table.act(player, ActionKind.CHECK, hand=hand_no, seq=seq)
        elif choice.move is Move.CALL and options.can_call:
            table.act(player, ActionKind.CALL, hand=hand_no, seq=seq)
        elif options.can_check:
            table.act(player, ActionKind.CHECK, hand=hand_no, seq=seq)
        else:
            table.act(player, ActionKind.FOLD, hand=hand_no, seq=seq)

    # -- the end of a hand -----------------------------------------------------

    def _end_hand(self, table_id: str, now: float, *, deal_next: bool = True) -> None:
        assert self.tournament is not None
        t = self.tournament
        table = self.tables[table_id]
        ended = table.last_hand_ended
        assert ended is not None
        self._ending.discard(table_id)
        at = self._at(now)
        if sum(ended.starting_stacks.values()) != sum(ended.finishing_stacks.values()):
            raise SimulationError(f"chips not conserved at table {table_id}, hand {ended.hand}")
        self._record_phh(table_id, table)
        assert table.hand is not None
        self.last_hand = PlayedHand(
            table_id, table.hand, dict(ended.players), self._hand_levels[table_id], self._at(self._dealt_at[table_id])
        )

        busts: list[BustOut] = []
        for occupant in ended.busted:
            if self._wants_rebuy(occupant.player, at):
                self.ledger.post_all(t.rebuy(occupant.player, 0, at))
                table.add_chips(occupant.player, self.config.chips_per_rebuy)
                continue
            if occupant.seat not in ended.vacated:
                table.remove_player(occupant.player)
            busts.append(BustOut(occupant.player, ended.starting_stacks[occupant.seat]))
        for player in table.active.values():
            if t.can_add_on(player, at):
                accept = self.rng.random() < 0.6 and self._can_pay(player)
                entries = t.add_on(player, at, accept=accept)
                if entries:
                    self.ledger.post_all(entries)
                    assert self.config.add_on is not None
                    table.add_chips(player, self.config.add_on.chips)

        outcome = t.hand_ended(table_id, busts, tuple(table.active.values()), at)
        self.ledger.post_all(outcome.entries)
        decision = outcome.decision
        involved = {m.from_table for m in decision.moves} | {m.to_table for m in decision.moves}
        changes = seat_moves(
            decision.moves, {tid: self.tables[tid].table_seats() for tid in involved}, self.config.seats_per_table
        )
        for change in changes:
            seated = self.tables[change.from_table].remove_player(change.player)
            self.tables[change.to_table].seat_player(change.player, change.to_seat, seated.stack, away=seated.away)
        for broken in decision.broken:
            self.tables.pop(broken, None)
        if decision.final_table is not None:
            self._redraw_final_table(decision.final_table)
        self._check_balance(table_id)
        self._maybe_check_everything()
        self.progress(t.remaining, t.entrants)
        if decision.finished or not deal_next:
            return
        for resumed in decision.resumed:
            if not self.tables[resumed].hand_in_progress:
                self._deal(resumed, now)
        if decision.final_table is not None and decision.final_table != table_id:
            self._deal(decision.final_table, now)
        if decision.deals and table_id in self.tables:
            self._deal(table_id, now)

    def _wants_rebuy(self, player: str, at: datetime) -> bool:
        assert self.tournament is not None
        if self.config.format is not TournamentFormat.REBUY or not self.tournament.rebuys_open(at):
            return False
        return self._can_pay(player) and self.rng.random() < 0.75

    def _can_pay(self, player: str) -> bool:
        return self.ledger.balance(player_account(player)) >= self.config.entry_cost

    def _redraw_final_table(self, table_id: str) -> None:
        """The final table: every seat drawn again, then the button by cards (RULES.md, rule 12)."""
        table = self.tables[table_id]
        seated = {player: table.remove_player(player) for player in table.players.values()}
        for seat, player in draw_final_table(list(seated), self.config.seats_per_table, self.rng):
            table.seat_player(player, seat, seated[player].stack, away=seated[player].away)
        table.draw_button(rng=self.rng)

    # -- invariants ---------------------------------------------------------------

    def _check_big_blind_moved(self, table_id: str, previous: Any, before: dict[int, str], bb_seat: int) -> None:
        """A table whose players did not change sees the BB move one active seat (RULES.md, rule 7)."""
        last = self._last_active.get(table_id)
        self._last_active[table_id] = before
        if previous is None or last != before:
            return
        expected = first_active_after(previous.big_blind.seat, before)
        if bb_seat != expected:
            raise SimulationError(f"table {table_id}: big blind at seat {bb_seat}, expected {expected}")

    def _check_balance(self, table_id: str) -> None:
        """The table whose hand ended is not a largest table two or more above the smallest (RULES.md, rule 11).

        Only that table is between hands (a largest table playing a hand gives its player when the hand ends).
        """
        assert self.tournament is not None
        balancing = self.tournament.balancing
        if table_id not in self.tables or balancing.table_count == 0:
            return
        size, smallest, largest = balancing.size(table_id), balancing.smallest(), balancing.largest()
        if size == largest and size - smallest > 1:
            raise SimulationError(f"table {table_id} has {size} players between hands; the smallest has {smallest}")

    def _maybe_check_everything(self) -> None:
        assert self.tournament is not None
        if self.o.players <= self.o.full_check_players or self.tournament.hands % self.o.check_every == 0:
            self._check_everything()

    def _check_everything(self) -> None:
        assert self.tournament is not None
        self.checks += 1
        self.ledger.verify_invariants()
        chips = sum(sp.stack for table in self.tables.values() for sp in table.seats.values())
        c = self.tournament.contributions.values()
        expected = (
            self.tournament.entrants * self.config.starting_stack
            + sum(x.rebuys for x in c) * self.config.chips_per_rebuy
            + sum(x.addons for x in c) * (self.config.add_on.chips if self.config.add_on else 0)
        )
        if chips != expected:
            raise SimulationError(f"{chips} chips in play, {expected} bought")
        for tid, size in self.tournament.balancing.sizes().items():
            if tid not in self._ending and len(self.tables[tid].seats) != size:
                raise SimulationError(f"table {tid} seats {len(self.tables[tid].seats)}; balancing counts {size}")

    # -- termination (RULES.md, rule 17) ------------------------------------------

    def _terminate(self, at_seconds: float) -> None:
        """Terminate at ``at_seconds``: cancel the hands in progress, then restart or compensate (rule 17)."""
        assert self.tournament is not None
        t = self.tournament
        at = self._at(at_seconds)
        # Hands already played out stand: their ends are processed; hands in progress are cancelled.
        pending = sorted({tid for _, _, tid, phase in self.events if phase is _Phase.END and tid in self._ending})
        for tid in pending:
            if t.status is TournamentStatus.RUNNING:
                self._end_hand(tid, at_seconds, deal_next=False)
        self.events.clear()
        for table in self.tables.values():
            if table.hand_in_progress:
                table.cancel_hand()
        minute = round(self.o.terminate_at or 0.0, 3)
        stacks = [
            Stack(sp.player, sp.stack)
            for _, table in sorted(self.tables.items(), key=lambda kv: int(kv[0]))
            for sp in table.seats.values()
            if sp.stack > 0
        ]
        remaining = [{"player": s.player_id, "chips": s.chips} for s in stacks]
        if t.status is not TournamentStatus.RUNNING:
            return
        if self.o.restart:
            self._restart(at_seconds + self.o.restart_after_minutes * 60)
            self.termination = {"at_minute": minute, "outcome": "restarted", "remaining": remaining, "paid": []}
            return
        compensated_at = at + RESTART_WINDOW
        facts = Termination(
            format=self.config.format,
            started_at=t.started_at or at,
            terminated_at=at,
            last_rebuy_period_ended=t.rebuy_period_over(at),
            collected=t.pool_collected,
            guarantee=self.config.guarantee,
            contributions=tuple(
                RecoveryContribution(c.player_id, c.house_paid, c.pool_paid) for c in t.contributions.values()
            ),
            prizes_paid=sum(p.prize for p in t.placings),
            remaining=tuple(stacks),
            payout=payout_for(t.entrants, self.config.payout_percent),
        )
        compensation = compensate(facts)
        pool_held = self.ledger.balance(pool_account(self.tournament_id))
        self.ledger.post_all(compensation_entries(self.tournament_id, compensation, pool_held, compensated_at))
        t.status = TournamentStatus.TERMINATED
        t.ended_at = compensated_at
        self.termination = {
            "at_minute": minute,
            "outcome": str(compensation.outcome),
            "remaining": remaining,
            "paid": compensation.paid_report(),
        }

    def _restart(self, resume_seconds: float) -> None:
        """Resume the same level with the time that was left, and deal every table again (rule 17.2)."""
        assert self.tournament is not None
        t = self.tournament
        assert t.clock is not None
        t.clock = t.clock.pause(self._at(self._terminated_at)).resume(self._at(resume_seconds))
        for tid in list(self.tables):
            if tid in t.balancing.sizes() and tid not in t.balancing.waiting:
                self._deal(tid, resume_seconds)

    # -- hand histories -------------------------------------------------------------

    def _record_phh(self, table_id: str, table: Table) -> None:
        if self.o.phh_dir is None:
            return
        hand = table.hand
        assert hand is not None
        players = table.last_hand_ended.players if table.last_hand_ended else {}
        seats = list(hand.seats)
        fields: dict[str, phh.FieldValue] = {
            "event": self.tournament_id,
            "table": int(table.number),
            "hand": table.hand_number,
            "seat_count": self.config.seats_per_table,
            "seats": seats,
            "players": [players[s] for s in seats],
            "_level": self._hand_levels.get(table_id, 1),
        }
        self.phh.setdefault(table_id, []).append(phh.dumps(hand, fields))

    # -- the report -------------------------------------------------------------------

    def _finish(self, t: Tournament | None) -> SimulationResult:
        self.ledger.verify_invariants()
        if t is not None:
            self._check_everything()
        report = build_report(self, t)
        files = {tid: phh.dumps_all(docs) for tid, docs in self.phh.items()}
        return SimulationResult(report, self.ledger, t, files)


def build_report(sim: Simulation, t: Tournament | None) -> dict[str, Any]:
    """The CONTRACT.md report of one simulated tournament."""
    config = sim.config
    summary = sim.ledger.summary(sim.tournament_id).as_report()
    summary["deposits"] = sim.ledger.summary().deposits
    summary["player_balances"] = sim.ledger.summary().player_balances
    status = t.status if t is not None else sim.book.status_at(EPOCH)
    report: dict[str, Any] = {
        "tournament": {
            "id": sim.tournament_id,
            "format": str(config.format),
            "buy_in": config.buy_in,
            "entry_fee": config.entry_fee,
            "guarantee": config.guarantee,
            "seats_per_table": config.seats_per_table,
            "started_at": _iso(t.started_at) if t else None,
            "ended_at": _iso(t.ended_at) if t else None,
            "status": str(status),
        },
        "entries": [c.to_report() for c in t.contributions.values()] if t else [],
        "places": sorted(
            ({"player": p.player_id, "place": p.place, "prize": p.prize} for p in (t.placings if t else [])),
            key=lambda row: (row["place"], row["player"]),
        ),
        "ledger": summary,
        "hands": t.hands if t else 0,
        "tables_at_start": sim.tables_at_start,
        "moves": t.moves if t else 0,
        "final_table_formed": t.final_table_formed if t else False,
        "invariant_checks": sim.checks,
    }
    if sim.termination is not None:
        report["termination"] = sim.termination
    return report


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z") if moment else None
