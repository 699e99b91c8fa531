"""Play: actions at a player's own seat, rebuys, add-ons, away and back (docs/rules.md, rules 9, 16; Rebuys).

An action is one strongly consistent read of the table, the rule applied in
the domain (``Table.act``), and one conditional write on the table's version.
Then: the hand ended -> ``HandEnded`` to the coordinator, else the next
decision's time-out is armed; then the pushes. A write that lost a race is
read and applied again: if another action took the decision meanwhile, the
domain answers ``StaleAction`` (a ``StaleVersion``), so of two actions racing
for one decision exactly one wins.

Rebuys and add-ons are paid at once (the ledger entries, the entrant's record
and the table in one unit of work); the chips are added at once when the
buyer is not dealt in the hand in progress, else when it ends (the
coordinator adds ``pending_chips``), so nobody's stack changes in a hand.

Once the tournament is terminated nothing is accepted (``Conflict``, 409)
until it restarts (docs/rules.md, rule 17). An action still reads only its table:
``cancel_hands`` marks every table ``halted`` in the write that cancels its
hand, so an action that slipped in before is voided with that hand. Away and
back do the same (their table alone: thousands a minute at a large tournament
must not all hold its item). Rebuys and add-ons read the tournament and commit
on its version, so one racing the termination either commits before it or is
refused.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from tourney.domain.errors import Conflict, IllegalAction, NoHandInProgress, NotFound, NotSeated
from tourney.domain.fees import Purchase, split_payment
from tourney.domain.hand import ActionKind
from tourney.domain.table import Awaiting
from tourney.services.dealer import after_table_write, close_hand
from tourney.services.deps import HandPorts
from tourney.services.messages import RebuyClosed, TimeoutDue
from tourney.services.records import EntrantRecord, TableRecord, TournamentRecord, evolve
from tourney.services.tables import push_table, retrying
from tourney.services.views import ActionOutcome, PresenceView, PurchaseView

_KINDS: dict[str, ActionKind] = {kind.value: kind for kind in ActionKind}
"""The actions by their public names (a dict lookup costs a fifth of ``ActionKind(name)``)."""


class PlayService(HandPorts):
    def act(
        self, tid: str, table: str, player: str, hand: int, seq: int, action: str, amount: int | None = None
    ) -> ActionOutcome:
        """Apply ``player``'s decision at their own seat of ``table`` (docs/interfaces.md, actions)."""
        kind = _KINDS.get(action) if isinstance(action, str) else None
        if kind is None:
            raise IllegalAction(f"unknown action {action!r}")
        return retrying(self._d, functools.partial(self._act, tid, table, player, hand, seq, action, kind, amount))

    def _act(
        self,
        tid: str,
        table: str,
        player: str,
        hand: int,
        seq: int,
        action: str,
        kind: ActionKind,
        amount: int | None,
    ) -> ActionOutcome:
        """One try of ``act``: read the table, apply the decision, write it over the version read."""
        d = self._d
        record = d.store.tables.get(tid, table)
        if record.closed:
            raise NoHandInProgress(f"table {table} is closed")
        _refuse_if_halted(record)
        now = d.clock.now()
        record.table.act(player, kind, amount, hand=hand, seq=seq, now=now)
        write = close_hand(d, evolve(record, updated_at=now), now)
        uow = d.store.unit_of_work()
        write.save(uow)
        uow.commit()
        # What follows reads the table, never the record's version: no copy at the stored version is made.
        awaiting = after_table_write(d, write, "action")
        return outcome(write.ended or write.record, hand, seq, action, amount, awaiting)

    def _in_play(self, tid: str) -> TournamentRecord:
        """The tournament, refused (``Conflict``) unless it is running: nothing moves once terminated (rule 17)."""
        t = self._d.store.tournaments.get(tid)
        if not t.life.running:
            raise Conflict(f"{tid} is {t.status}: nothing is accepted until it restarts (rule 17)")
        return t

    def _entrant_table(self, tid: str, player: str) -> tuple[EntrantRecord, TableRecord]:
        entrant = self._d.store.entrants.get(tid, player)
        if entrant is None or entrant.table_id is None:
            raise NotSeated(f"{player} has no seat in {tid}")
        return entrant, self._d.store.tables.get(tid, entrant.table_id)

    def rebuy(self, tid: str, player: str) -> PurchaseView:
        """Buy the starting stack again during a rebuy period, at or below the starting stack (rules: Rebuys)."""
        return retrying(self._d, lambda: self._purchase(tid, player, Purchase.REBUY))

    def add_on(self, tid: str, player: str) -> PurchaseView:
        """Buy the add-on once, in the level after the last rebuy period (``TournamentState`` reading)."""
        return retrying(self._d, lambda: self._purchase(tid, player, Purchase.ADD_ON))

    def _purchase(self, tid: str, player: str, purchase: Purchase) -> PurchaseView:
        d = self._d
        now = d.clock.now()
        t = self._in_play(tid)
        coordinator = d.store.coordinators.get(tid)
        if coordinator is None:
            raise NotFound(f"{tid} is not running")
        state = coordinator.state
        entrant, record = self._entrant_table(tid, player)
        table = record.table
        table.seat_of(player)  # NotSeated unless the entrant's table seats them
        contribution = replace(entrant.contribution)
        shards = t.house_shards  # the fee goes to the buyer's house shard, where rule 17 takes it back from
        if purchase is Purchase.REBUY:
            owned = table.chips_owned(player, record.between_hands.pending_for(player))
            entries = state.rebuy(contribution, owned, now, eliminated=entrant.eliminated, house_shards=shards)
            chips = state.config.chips_per_rebuy
        else:
            entries = state.add_on(contribution, now, eliminated=entrant.eliminated, house_shards=shards)
            assert state.config.add_on is not None
            chips = state.config.add_on.chips
        pending = table.in_hand(player)
        fresh = record.holding(record.between_hands.add(table, player, chips), updated_at=now)
        window_done = fresh.between_hands.rebuy_window_done(table)  # every bust-out here rebought: it closes early
        uow = d.store.unit_of_work()
        uow.check(t)  # a termination committed meanwhile refuses it (read again: StaleVersion)
        uow.post(entries)
        uow.save(replace(entrant, contribution=contribution))
        uow.save(fresh)
        uow.commit()
        if window_done:
            d.coordination.rebuy_closed(RebuyClosed(tournament_id=tid, table=record.table_id, hand=table.hand_number))
        push_table(d, replace(fresh, version=fresh.version + 1), str(purchase))
        paid = split_payment(purchase, state.config.buy_in, state.config.entry_fee).paid
        return PurchaseView(tid, player, str(purchase), paid, chips, pending)

    def away(self, tid: str, player: str) -> PresenceView:
        """Mark oneself away: dealt in, posting, acted for on time-out with the short time (rule 16)."""
        return retrying(self._d, lambda: self._presence(tid, player, away=True))

    def back(self, tid: str, player: str) -> PresenceView:
        """Come back at any moment: one acts oneself from the next decision on (rule 16)."""
        return retrying(self._d, lambda: self._presence(tid, player, away=False))

    def _presence(self, tid: str, player: str, *, away: bool) -> PresenceView:
        """One try of ``away``/``back``: the table alone is written, over the version read, as an action is.

        Not in a transaction with a check of the tournament: at 250,000 players thousands a minute would all hold
        that one item and cancel each other. A table halted by a termination refuses it, as it refuses actions;
        one that crosses the termination's commit is as one made the moment before (it changes only the time a
        player's decisions get, and no decision is awaited until the restart).
        """
        d = self._d
        self._in_play(tid)
        _, record = self._entrant_table(tid, player)
        _refuse_if_halted(record)
        if away:
            record.table.set_away(player)
        else:
            record.table.come_back(player)
        fresh = replace(record, updated_at=d.clock.now())
        uow = d.store.unit_of_work()
        uow.save(fresh)
        uow.commit()
        stored = replace(fresh, version=fresh.version + 1)
        awaiting = stored.table.awaiting(normal=stored.decision_seconds, when_away=stored.away_seconds)
        if not away and awaiting is not None and awaiting.player == player:
            # The away time-out armed for this decision is now stale: arm a full-length one.
            due = TimeoutDue(
                tournament_id=tid, table=record.table_id, hand=awaiting.hand, seq=awaiting.seq, seat=awaiting.seat
            )
            d.timers.arm(due, awaiting.seconds)
        push_table(d, stored, "away" if away else "back")
        return PresenceView(tid, player, record.table_id, away)


def _refuse_if_halted(record: TableRecord) -> None:
    """A table halted by a termination accepts nothing until the tournament restarts (rule 17)."""
    if record.halted:
        raise Conflict(f"{record.tournament_id} is terminated: nothing is accepted until it restarts (rule 17)")


def outcome(
    record: TableRecord, hand: int, seq: int, action: str, amount: int | None, awaiting: Awaiting | None
) -> ActionOutcome:
    """What the caller of an action or a time-out is answered; ``awaiting`` is the decision armed after it."""
    table = record.table
    played = table.hand
    over = played is None or played.is_over or table.hand_number != hand
    next_to_act = awaiting.seat if awaiting is not None and not over else None
    # Positional, in the fields' order (tournament_id, table, hand, seq, action, amount, hand_over, next_to_act):
    # one is built per decision.
    return ActionOutcome(record.tournament_id, record.table_id, hand, seq, action, amount, over, next_to_act)
