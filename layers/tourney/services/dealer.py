"""A table deals its own next hand: the write that ends a hand stores it and deals the next (``domain/dealing.py``).

``close_hand`` runs inside an action's or a time-out's try, before its
commit. When that decision ended the hand and nothing above the table is to
decide (nobody busted, ``Table.ended_quietly``; no rebuy window, bought chips,
disqualification or hand-for-hand at the table; the tournament's
``DealingOrders`` let this table deal), the same conditional write stores the
hand's history, marks the hand settled (``coordinated_hand``) and deals the
next hand. Otherwise the write ends the hand alone and ``after_table_write``
sends its end to the coordination (``services/coordinate.py``), as any hand
end that needs places, prizes or moves.

The orders are one small item per tournament; ``publish_orders`` writes them
again, in the unit of work that changes the tournament's state, whenever
that change alters them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from tourney.domain.table import Awaiting
from tourney.domain.tournament import TournamentState
from tourney.services.deps import Deps
from tourney.services.ports import Store, UnitOfWork
from tourney.services.records import DealingRecord, HandRecord, TableRecord, evolve
from tourney.services.tables import after_write, deal_at
from tourney.services.views import shown_draw


@dataclass(frozen=True, slots=True)
class TableWrite:
    """What a decision's try saves: the table, and, when the table dealt on its own, the hand it ended.

    ``ended``: the table as that hand ended, pushed before the next deal so every
    client sees the showdown; ``history``: that hand's history, saved with the table.
    """

    record: TableRecord
    history: HandRecord | None = None
    ended: TableRecord | None = None

    def save(self, uow: UnitOfWork) -> None:
        uow.save(self.record)
        if self.history is not None:
            uow.save(self.history)


def close_hand(deps: Deps, record: TableRecord, now: datetime) -> TableWrite:
    """``record`` after a decision: with the next hand dealt when it ended a hand the table settles on its own."""
    table = record.table
    if not _settles_at_the_table(record):
        return TableWrite(record)
    found = deps.store.dealing.get(record.tournament_id)
    if found is None or not found.orders.table_deals_on_its_own(record.table_id):
        return TableWrite(record)
    settled = evolve(record, coordinated_hand=table.hand_number)
    ended = evolve(settled, table=table.copy())
    history = hand_history(record, now)
    dealt = deal_at(deps, settled, found.orders.level(now), now)
    if dealt is None:
        return TableWrite(record)
    return TableWrite(dealt, history, ended)


def _settles_at_the_table(record: TableRecord) -> bool:
    """The hand just ended, nobody busted, and the table has no between-hands work the coordination does."""
    return (
        record.coordinated_hand < record.table.hand_number
        and record.between_hands.idle
        and not (record.hand_for_hand or record.halted or record.closed)
        and record.table.ended_quietly()
    )


def after_table_write(deps: Deps, write: TableWrite, event: str) -> Awaiting | None:
    """Follow a committed ``TableWrite``: the hand's end pushed, then the next hand's deal (``after_write``)."""
    if write.ended is None:
        return after_write(deps, write.record, event)
    after_write(deps, write.ended, event)  # settled: nothing is sent to the coordination, the showdown is pushed
    return after_write(deps, write.record, "hand_dealt")


def hand_history(record: TableRecord, now: datetime) -> HandRecord:
    """The history of the hand that just ended at ``record``'s table (the hand replayer's and the auditors')."""
    table = record.table
    ended = table.last_hand_ended
    assert table.hand is not None and ended is not None
    return HandRecord(
        tournament_id=record.tournament_id,
        table_id=record.table_id,
        hand_number=table.hand_number,
        hand=table.hand.to_dict(),
        players=dict(ended.players),
        seat_count=table.seat_count,
        level=record.level,
        dealt_at=record.dealt_at or now,
        ended_at=now,
        button_draw=tuple((d.seat, d.player or "", d.card) for d in shown_draw(table, ended.players) or ()),
    )


def publish_orders(store: Store, uow: UnitOfWork, state: TournamentState) -> None:
    """Save ``state``'s dealing orders in ``uow`` when they changed (the unit of work that changes ``state``)."""
    orders = state.dealing_orders()
    found = store.dealing.get(state.tournament_id)
    if found is None:
        uow.save(DealingRecord(state.tournament_id, orders))
    elif found.orders != orders:
        uow.save(replace(found, orders=orders))
