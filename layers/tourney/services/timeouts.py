"""Time-outs (docs/rules.md, rule 16): check or fold when a decision's time runs out; stale ones are no-ops.

A ``TimeoutDue`` names the decision it was armed for (hand, ``seq``, seat);
if the hand or the decision moved on, or it was armed for an away player who
came back, it is stale and changes nothing (so a duplicate delivery changes
nothing either). When the decision's own time ran out and the player has a
time bank, the bank starts and a time-out is armed for it; otherwise (or when
the bank's time-out comes) the table checks or folds for the player and marks
them away, and play continues as after an action. A ``RebuyDue`` is
handed to the coordinator's ordered stream (``RebuyClosed``). A
``TablesSettled`` is what a batch of that stream committed: its tables are
read again and pushed, the dealt ones' time-outs armed.
"""

from __future__ import annotations

from tourney.domain.errors import NoHandInProgress, NotFound, NotSeated, NotYourTurn, StaleAction
from tourney.domain.table import BankStarted
from tourney.services.dealer import after_table_write, close_hand
from tourney.services.deps import HandPorts
from tourney.services.messages import RebuyClosed, RebuyDue, TablesSettled, TimeoutDue
from tourney.services.play import outcome
from tourney.services.records import TableRecord, evolve
from tourney.services.tables import after_write, follow_settlement, retrying
from tourney.services.views import ActionOutcome

STALE = (StaleAction, NoHandInProgress, NotSeated, NotYourTurn, NotFound)


class TimeoutService(HandPorts):
    def on_timeout(self, message: TimeoutDue | RebuyDue) -> ActionOutcome | None:
        """Apply the time-out, or nothing when it is stale (``None``)."""
        if isinstance(message, RebuyDue):
            self._d.coordination.rebuy_closed(
                RebuyClosed(tournament_id=message.tournament_id, table=message.table, hand=message.hand)
            )
            return None
        if self._awaiting(message) is None:
            return None  # the decision moved on: most time-outs, since most players act in time
        return retrying(self._d, lambda: self._timeout(message))

    def on_tables_settled(self, settled: TablesSettled) -> None:
        """Push the tables a coordination batch committed, as they are now, and arm the dealt ones' time-outs."""
        records = self._d.store.tables.get_many(settled.tournament_id, settled.tables)
        follow_settlement(self._d, settled, records)

    def _awaiting(self, m: TimeoutDue) -> TableRecord | None:
        """The table, if it still awaits the decision ``m`` was armed for."""
        try:
            record = self._d.store.tables.get(m.tournament_id, m.table)
        except NotFound:
            return None
        if record.closed or not record.table.awaits(m.hand, m.seq, m.seat):
            return None
        return record

    def _timeout(self, m: TimeoutDue) -> ActionOutcome | None:
        d = self._d
        record = self._awaiting(m)  # read again: a retry follows a write that won the race
        if record is None:
            return None
        now = d.clock.now()
        try:
            record_ = record.table.timeout(
                m.seat,
                hand=m.hand,
                seq=m.seq,
                armed_for_away=m.armed_for_away,
                time_bank=m.time_bank,
                now=now,
            )
        except STALE:
            return None
        write = close_hand(d, evolve(record, updated_at=now), now)
        uow = d.store.unit_of_work()
        write.save(uow)
        uow.commit()
        if isinstance(record_, BankStarted):
            stored = evolve(write.record, version=write.record.version + 1)
            awaiting = after_write(d, stored, "time_bank")  # arms the bank's own time-out
            return outcome(stored, m.hand, m.seq, "time_bank", None, awaiting)
        awaiting = after_table_write(d, write, "timeout")
        return outcome(write.ended or write.record, m.hand, m.seq, str(record_.kind), None, awaiting)
