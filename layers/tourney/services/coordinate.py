"""The coordinator: one ordered stream per tournament (SQS FIFO), places, prizes, balancing, the next deal.

``on_hand_ended`` processes the end of one hand at one table, once: the
table's ``coordinated_hand`` records the last hand processed, so a duplicate
delivery finds it and changes nothing. Everything one hand end decides is
written in one unit of work: the coordinator's state (its version), the
table, every table a move touches (both ends of a move, atomically), the
entrants moved or placed, the hand's history, and the ledger entries (the
overlay when prizes are fixed, each prize the moment its place is decided).

In a rebuy period the players who bust keep their seats with no chips and
have the decision time to rebuy (docs/rules.md, Rebuys): the hand end is then
processed in two steps. ``HandEnded`` writes the history and opens the
window (a ``RebuyDue`` time-out); ``RebuyClosed`` (the time ran out, or every
bust-out rebought) eliminates those still without chips and does the rest.
The table is between hands the whole time, so moves stay legal.

Once the tournament is terminated (its state says so, written with the
termination: ``recover.terminate_running``), a hand end that was pending is
still settled, its places and prizes included, and the tables' moves made,
but no hand is dealt and no rebuy window opens (no rebuy is accepted then);
players out of chips are eliminated at once. The restart deals again
(docs/rules.md, rule 17: nothing moves until it restarts or is compensated).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tourney.domain.balancing import BalancingDecision, SeatChange, seat_moves
from tourney.domain.between_hands import BetweenHands, players_out
from tourney.domain.errors import NotFound
from tourney.domain.ledger import pool_account
from tourney.domain.prizes import Placing
from tourney.domain.seating import draw_final_table
from tourney.domain.table import Table
from tourney.domain.tournament import HandSettled, TournamentState
from tourney.services.dealer import hand_history, publish_orders
from tourney.services.deps import HandPorts
from tourney.services.messages import HandEnded, RebuyClosed, RebuyDue, TablesSettled
from tourney.services.ports import PlayerPush, Store
from tourney.services.records import CoordinatorRecord, EntrantRecord, Record, TableRecord, evolve
from tourney.services.tables import deal, follow_settlement, retrying
from tourney.services.views import Coordinated, PlaceView, placed_push

MOST_ITEMS = 60
"""Items a chunk's unit of work grows to before the next hand end waits for another (one transaction takes 100;
a hand end that breaks a table may add 20 at once)."""
ITEMS_PER_ENTRY = 4
"""Items a ledger entry may write: the entry, a player's leg and balance, a pool or house shard."""


def _moved(tid: str, change: SeatChange, seat: int) -> dict[str, object]:
    """The ``moved`` push to a player moved to another table (docs/rules.md, rule 13): where they now sit, and why."""
    return {
        "event": "moved",
        "tournament_id": tid,
        "player_id": change.player,
        "table": change.to_table,
        "seat": seat,
        "from_table": change.from_table,
        "reason": str(change.reason),
    }


def _duplicate(m: HandEnded | RebuyClosed) -> Coordinated:
    """The answer to a message that changed nothing (a duplicate, or stale)."""
    return Coordinated(m.tournament_id, m.table, m.hand, duplicate=True)


def _hand_over(record: TableRecord) -> TableRecord:
    """The table with what its hand's end settles at the table itself: the chips bought during it (``hand_over``)."""
    return record.holding(record.between_hands.hand_over(record.table))


def _tables_that_deal(ended_at: str, result: HandSettled, state: TournamentState) -> list[str]:
    """The tables whose next hand may be dealt now, each once: this one, those resumed or released, the final one."""
    decision = result.decision
    candidates = [ended_at] if decision.deals and not result.held else []
    waiting = state.hand_for_hand.waiting if state.hand_for_hand is not None else set()
    candidates += [t for t in decision.resumed if t not in waiting]  # else it joins the next round
    candidates += list(result.released)
    if decision.final_table is not None:
        candidates.append(decision.final_table)
    return list(dict.fromkeys(candidates))


class _Touched:
    """The tables and entrants a chunk's hand ends change, each read once, kept in the order they were first touched.

    The tables the chunk's messages name are read together first (``read_ahead``); the entrants' changes are
    gathered as they are decided and applied to the entrants, read together, when the chunk commits (``entrants``).
    """

    def __init__(self, store: Store, tournament_id: str) -> None:
        self._store = store
        self.tournament_id = tournament_id
        self.tables: dict[str, TableRecord] = {}
        self._read: dict[str, TableRecord] = {}
        self._entrant_changes: dict[str, dict[str, object]] = {}

    def read_ahead(self, table_ids: Collection[str]) -> None:
        """Read these tables in one request; each is touched only when ``table`` is asked for it."""
        self._read.update(self._store.tables.get_many(self.tournament_id, table_ids))

    def peek(self, table_id: str) -> TableRecord:
        """The table as the chunk has it, touched or not (``NotFound``: there is none)."""
        if table_id in self.tables:
            return self.tables[table_id]
        if table_id not in self._read:
            self._read[table_id] = self._store.tables.get(self.tournament_id, table_id)
        return self._read[table_id]

    def table(self, table_id: str) -> TableRecord:
        if table_id not in self.tables:
            self.tables[table_id] = self.peek(table_id)
        return self.tables[table_id]

    def change_entrant(self, player: str, **fields: object) -> None:
        self._entrant_changes.setdefault(player, {}).update(fields)

    @property
    def entrants_changed(self) -> int:
        return len(self._entrant_changes)

    def entrants(self) -> list[EntrantRecord]:
        """The entrants changed, read in one request, with their changes."""
        found = self._store.entrants.get_many(self.tournament_id, self._entrant_changes)
        missing = [player for player in self._entrant_changes if player not in found]
        if missing:
            raise NotFound(f"{missing[0]} is not an entrant of {self.tournament_id}")
        return [replace(found[player], **fields) for player, fields in self._entrant_changes.items()]  # type: ignore[arg-type]

    def place_and_remove(self, placings: Sequence[Placing], gone: dict[str, int], now: datetime) -> None:
        """The placed players' places, and the disqualified players' chips taken out of play (rules 9, 19)."""
        for placing in placings:
            self.change_entrant(placing.player_id, placing=placing, placed_at=now)
        for player, chips in gone.items():
            self.change_entrant(player, chips_removed=chips, table_id=None)


@dataclass(frozen=True)
class _Settled:
    """One hand end settled in a chunk: what it decided, the moves it made and the tables it dealt."""

    ended_at: str
    result: HandSettled
    changes: tuple[SeatChange, ...]
    dealt: tuple[str, ...]


class _Chunk:
    """Hand ends of one tournament settled together: the coordinator's state read once, one unit of work."""

    def __init__(self, store: Store, coordinator: CoordinatorRecord, now: datetime) -> None:
        self.coordinator = coordinator
        self.state: TournamentState = coordinator.state
        self.now = now
        self.touched = _Touched(store, coordinator.tournament_id)
        self.histories: list[Record] = []
        self.settled: list[_Settled] = []

    @property
    def full(self) -> bool:
        """Whether another hand end could take the unit of work past what one transaction holds."""
        entries = sum(len(s.result.entries) for s in self.settled)
        items = len(self.histories) + len(self.touched.tables) + self.touched.entrants_changed + 3
        return items + ITEMS_PER_ENTRY * entries > MOST_ITEMS


class CoordinatorService(HandPorts):
    def on_hand_ended(self, message: HandEnded | RebuyClosed) -> Coordinated:
        """Process one message of the coordinator's stream; a duplicate or stale one changes nothing."""
        return self.on_hand_ends([message])[0]

    def on_hand_ends(self, messages: Sequence[HandEnded | RebuyClosed]) -> list[Coordinated]:
        """Process a batch of the stream in its order, in as few units of work as fit: one answer per message.

        Consecutive hand ends of one tournament are settled together (``_Chunk``): one read of the
        coordinator's state, one unit of work, one round of pushes, as if settled one at a time. A chunk
        that lost a race is read and decided again; one that committed stays committed if a later one fails.
        """
        answers: list[Coordinated] = []
        while len(answers) < len(messages):
            answers += retrying(self._d, functools.partial(self._chunk, messages[len(answers) :]))
        return answers

    def _chunk(self, messages: Sequence[HandEnded | RebuyClosed]) -> list[Coordinated]:
        """Settle the longest prefix of ``messages`` that fits one unit of work (at least one message)."""
        tid = messages[0].tournament_id
        own = list(itertools.takewhile(lambda m: m.tournament_id == tid, messages))
        coordinator = self._d.store.coordinators.get(tid)
        if coordinator is None or not coordinator.state.in_play:
            return [_duplicate(m) for m in own]
        chunk = _Chunk(self._d.store, coordinator, self._d.clock.now())
        chunk.touched.read_ahead({m.table for m in own})
        answers: list[Coordinated] = []
        for m in own:
            alone = isinstance(m, HandEnded) and chunk.state.rebuys_open(chunk.now)  # it may open a rebuy window
            if answers and (alone or chunk.full):
                break
            answers.append(self._one(chunk, m))
            if answers[-1].waiting_for_rebuys:
                break  # the window's own unit of work committed: what follows is read afresh
        if chunk.settled:
            self._commit(chunk)
            self._follow(chunk)
        return answers

    def _one(self, chunk: _Chunk, m: HandEnded | RebuyClosed) -> Coordinated:
        """Decide one hand end into ``chunk`` (or open its rebuy window, alone); a duplicate or stale one: nothing."""
        d = self._d
        tid = m.tournament_id
        try:
            record = chunk.touched.peek(m.table)
        except NotFound:
            return _duplicate(m)
        table = record.table
        if (
            not chunk.state.in_play  # finished by a hand end before it in the chunk
            or record.coordinated_hand >= m.hand
            or table.hand_number != m.hand
            or table.hand_in_progress
            or record.closed
            or table.last_hand_ended is None
        ):
            return _duplicate(m)
        now = chunk.now
        decision_seconds = chunk.state.config.decision_seconds  # a rebuy window lasts a decision's time
        if isinstance(m, HandEnded):
            if record.rebuy_pending:
                # The first step of this hand end was done: the window is open. The invocation that opened it may
                # have died before arming its close (the queue then delivers this again): arm it for what is left.
                try:
                    opened = d.store.hands.get(tid, m.table, m.hand).ended_at
                except NotFound:
                    opened = now
                self._arm_rebuy_close(tid, m.table, m.hand, opened + timedelta(seconds=decision_seconds), now)
                return _duplicate(m)
            history = hand_history(record, now)
            record = _hand_over(record)
            held = BetweenHands.without_chips(record.table)
            if held and chunk.state.rebuys_open(now):  # never once terminated: no rebuy is accepted then
                record = record.holding(record.between_hands.open_rebuy_window(held), updated_at=now)
                return self._open_rebuy_window(m, record, history, now + timedelta(seconds=decision_seconds), now)
            chunk.histories.append(history)
        elif not record.rebuy_pending:
            return _duplicate(m)
        else:
            record = _hand_over(record)
        return self._settle(chunk, record)

    def _open_rebuy_window(
        self, m: HandEnded, record: TableRecord, history: Record, closes: datetime, now: datetime
    ) -> Coordinated:
        """A hand end's first step when bust-outs may rebuy: the history and the table, then the close armed."""
        d = self._d
        uow = d.store.unit_of_work()
        uow.save(history)
        uow.save(record)
        uow.commit()
        self._arm_rebuy_close(m.tournament_id, m.table, m.hand, closes, now)
        offer = {"event": "rebuy_offered", "tournament_id": m.tournament_id, "table": m.table}
        d.pushes.many([PlayerPush(player, offer) for player in record.rebuy_pending])
        return Coordinated(m.tournament_id, m.table, m.hand, waiting_for_rebuys=record.rebuy_pending)

    def _arm_rebuy_close(self, tid: str, table: str, hand: int, closes: datetime, now: datetime) -> None:
        """Arm the close of the rebuy window opened when ``hand`` ended, due at ``closes``: a second is a no-op."""
        left = (closes - now).total_seconds()
        due = RebuyDue(tournament_id=tid, table=table, hand=hand)
        self._d.timers.arm(due, max(0, math.ceil(left)))  # whole seconds, as SQS delays: never before it closes

    # -- the hand's end, settled ---------------------------------------------------

    def _settle(self, chunk: _Chunk, record: TableRecord) -> Coordinated:
        """Place the players out, move and break tables, redraw the final table and deal, into ``chunk``."""
        state, now = chunk.state, chunk.now
        table = record.table
        # disqualified players leave play, placeless (rule 19)
        busted, gone = record.between_hands.leave_play(table, players_out(table))
        result = state.hand_ended(
            record.table_id,
            busted,
            tuple(table.active.values()),
            now,
            lambda: self._d.store.ledger.balance(pool_account(record.tournament_id)),
            len(gone),
        )
        decision = result.decision
        record = record.holding(
            record.between_hands.settled(),
            coordinated_hand=table.hand_number,
            updated_at=now,
            hand_for_hand=state.hand_for_hand is not None,
        )
        touched = chunk.touched
        touched.tables[record.table_id] = record
        touched.place_and_remove(result.placings, gone, now)
        changes = self._move_and_break(touched, decision, state, now)
        if decision.final_table is not None:
            self._redraw(touched.table(decision.final_table).table, state)
        to_deal: list[str] = []
        if decision.finished:
            touched.tables[record.table_id] = replace(touched.tables[record.table_id], closed=True)
        elif not state.halted:
            to_deal = self._deal_next_hands(touched, record.table_id, result, state, now)
        chunk.settled.append(_Settled(record.table_id, result, changes, tuple(to_deal)))
        return Coordinated(
            record.tournament_id,
            record.table_id,
            table.hand_number,
            placed=tuple(PlaceView(p.player_id, p.place, p.prize) for p in result.placings),
            moves=len(decision.moves),
            dealt=tuple(to_deal),
            finished=decision.finished,
            held=result.held,
            hand_for_hand_round=result.round_played.to_report() if result.round_played else None,
        )

    def _move_and_break(
        self, touched: _Touched, decision: BalancingDecision, state: TournamentState, now: datetime
    ) -> tuple[SeatChange, ...]:
        """Make the balancing moves, each player to the seat they are given, and close the broken tables (13, 14)."""
        moves = decision.moves
        for source in sorted({mv.from_table for mv in moves} | set(decision.broken)):
            # Chips bought during a hand that is over (or was cancelled) go with the player who leaves (rule 17.1).
            current = touched.table(source)
            if current.pending_chips and not current.table.hand_in_progress:
                touched.tables[source] = _hand_over(current)
        involved = {mv.from_table for mv in moves} | {mv.to_table for mv in moves}
        views = {t: touched.table(t).table.table_seats() for t in involved}
        changes = seat_moves(moves, views, state.config.seats_per_table) if moves else ()  # most hands: none
        for change in changes:
            seated = touched.table(change.from_table).table.remove_player(change.player)
            touched.table(change.to_table).table.seat_player(
                change.player, change.to_seat, seated.stack, away=seated.away, bank=seated.bank
            )
            touched.change_entrant(change.player, table_id=change.to_table)
        for broken in decision.broken:
            touched.tables[broken] = replace(touched.table(broken), closed=True, updated_at=now)
        return tuple(changes)

    def _deal_next_hands(
        self, touched: _Touched, ended_at: str, result: HandSettled, state: TournamentState, now: datetime
    ) -> list[str]:
        """Deal the next hand at the tables that deal now; the ids of those dealt."""
        holding = state.hand_for_hand is not None
        to_deal: list[str] = []
        for table_id in _tables_that_deal(ended_at, result, state):
            current = touched.table(table_id)
            if current.closed or current.halted or current.table.hand_in_progress:
                continue  # a halted table deals again when its tournament restarts
            if table_id != ended_at and current.coordinated_hand < current.table.hand_number:
                continue  # its own hand end is on the way: it deals then
            if current.hand_for_hand != holding:
                current = touched.tables[table_id] = evolve(current, hand_for_hand=holding)
            dealt = deal(self._d, current, state, now)
            if dealt is not None:
                touched.tables[table_id] = dealt
                to_deal.append(table_id)
        return to_deal

    def _commit(self, chunk: _Chunk) -> None:
        """Everything the chunk's hand ends decided, in one unit of work (module docstring)."""
        store = self._d.store
        touched = chunk.touched
        uow = store.unit_of_work()
        for history in chunk.histories:
            uow.save(history)
        uow.save(evolve(chunk.coordinator, state=chunk.state))
        publish_orders(store, uow, chunk.state)
        for current in touched.tables.values():
            uow.save(current)
        for entrant in touched.entrants():
            uow.save(entrant)
        uow.post(e for settled in chunk.settled for e in settled.result.entries)
        if any(s.result.decision.finished for s in chunk.settled):
            t = store.tournaments.get(touched.tournament_id)
            uow.save(t.lived(t.life.finish(chunk.now)))
        uow.commit()

    def _follow(self, chunk: _Chunk) -> None:
        """Arm the dealt tables' time-outs, push each changed table once, tell each moved player where they now sit
        and each placed player the place: handed to the time-outs queue (``TablesSettled``), so that the stream's
        next batch need not wait for the pushes; where there is no queue (memory), at once."""
        touched = chunk.touched
        tid = touched.tournament_id
        dealt = tuple(dict.fromkeys(t for s in chunk.settled for t in s.dealt))
        held = tuple(s.ended_at for s in chunk.settled if s.result.held)
        notices: list[PlayerPush] = []
        for settled in chunk.settled:
            for change in settled.changes:  # each moved player is told where they now sit: a client opens that table
                seats = touched.tables[change.to_table].table.players.items()
                now_at = {p: seat for seat, p in seats}  # after a redraw
                seat = now_at.get(change.player, change.to_seat)
                notices.append(PlayerPush(change.player, _moved(tid, change, seat)))
            notices += [PlayerPush(p.player_id, placed_push(tid, p)) for p in settled.result.placings]
        players = tuple((n.player_id, dict(n.message)) for n in notices)
        message = TablesSettled(tid, tuple(touched.tables), dealt, held, players)
        if not self._d.timers.follow(message):
            stored = {t: evolve(current, version=current.version + 1) for t, current in touched.tables.items()}
            follow_settlement(self._d, message, stored)

    def _redraw(self, table: Table, state: TournamentState) -> None:
        """The final table: every seat drawn again, then the button by cards (docs/rules.md, rule 12)."""
        seated = {player: table.remove_player(player) for player in table.players.values()}
        for seat, player in draw_final_table(list(seated), state.config.seats_per_table, self._d.rng):
            table.seat_player(player, seat, seated[player].stack, away=seated[player].away, bank=seated[player].bank)
        table.draw_button(rng=self._d.rng)
