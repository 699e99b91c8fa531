"""What several services do with a table: deal its next hand, see it as one viewer, and follow a write.

* :func:`deal` deals the next hand with the level of the tournament clock.
* :func:`table_view` is the table as one viewer may see it: hole cards only
  the viewer's own, or shown at showdown (docs/interfaces.md; docs/rules.md, rule 16).
* :func:`after_write` runs once a table write committed: the hand ended ->
  ``HandEnded`` to the coordinator; a decision awaited -> its time-out armed;
  then the pushes, one message per recipient.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from tourney.domain.cards import card_str, shuffled_deck
from tourney.domain.errors import StaleVersion
from tourney.domain.fairness import draw_hand_secret
from tourney.domain.formats import TournamentFormat
from tourney.domain.hand import SeatStatus
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Awaiting, LastAction, SeatedPlayer, Table
from tourney.domain.tournament import TournamentState
from tourney.services.deps import Deps
from tourney.services.messages import HandEnded, RebuyDue, TablesSettled, TimeoutDue
from tourney.services.names import names_of
from tourney.services.ports import PlayerPush, Push, TablePush
from tourney.services.records import TableRecord, evolve
from tourney.services.views import LastActionView, PotView, SeatView, TableView, ToAct, shown_draw

T = TypeVar("T")


def retrying(deps: Deps, attempt: Callable[[], T]) -> T:
    """Run ``attempt`` (read, decide, commit) again when its commit lost a race; the last loss is raised.

    Between tries ``deps.backoff`` waits (a jittered while on AWS, nothing in memory).
    """
    for lost in range(1, deps.retries):
        try:
            return attempt()
        except StaleVersion as error:
            if type(error) is not StaleVersion:
                raise  # StaleAction and kin: the request itself is stale, retrying cannot help
        deps.backoff(lost)
    return attempt()


def deal(deps: Deps, record: TableRecord, state: TournamentState, now: datetime) -> TableRecord | None:
    """The record with the next hand dealt (docs/rules.md, rules 7, 8, 14), or None when fewer than two are active."""
    hold = state.config.format is TournamentFormat.REBUY and state.rebuys_open(now)
    return deal_at(deps, record, state.level(now), now, hold_busted_seats=hold)


def deal_at(
    deps: Deps, record: TableRecord, level: BlindLevel, now: datetime, *, hold_busted_seats: bool = False
) -> TableRecord | None:
    """``deal`` at ``level``; ``hold_busted_seats`` while rebuys are open (``Table.start_hand``)."""
    table = record.table
    if table.hand_in_progress or len(table.active) < 2 or record.closed or record.rebuy_pending:
        return None
    if table.button_seat is None:
        table.draw_button(rng=deps.rng)  # a table that waited with one player deals its first hand (rule 6)
    deck, secret = shuffled_deck(deps.rng), draw_hand_secret(deps.rng)
    table.start_hand(level, deck, hold_busted_seats=hold_busted_seats, secret=secret, now=now)
    return evolve(record, level=level.number, dealt_at=now, updated_at=now)


def table_view(
    record: TableRecord,
    viewer: str | None,
    *,
    decision_seconds: int = 15,
    away_seconds: int = 5,
    names: Mapping[str, str] | None = None,
) -> TableView:
    """The table as ``viewer`` sees it (None: an observer): own hole cards, and cards shown at showdown."""
    table = record.table
    hand = table.hand
    in_progress = table.hand_in_progress
    shown: dict[int, tuple[int, int]] = {}
    if hand is not None and hand.result is not None and not hand.is_cancelled:
        shown = dict(hand.result.shown)
    last_actions = table.last_actions()
    seats = tuple(
        _seat_view(table, seat, sp, viewer, shown, last_actions.get(seat), names or {})
        for seat, sp in table.seats.items()
    )
    your_seat: int | None = None
    for seat, sp in table.seats.items():
        if sp.player == viewer:
            your_seat = seat
    positions = table.positions
    button, sb, bb = positions.seats() if positions is not None else (table.button_seat, None, None)
    live = hand is not None and not hand.is_cancelled
    return TableView(
        tournament_id=record.tournament_id,
        table=record.table_id,
        hand=table.hand_number,
        hand_in_progress=in_progress,
        seq=hand.seq if live and hand is not None else 0,
        street=str(hand.street) if live and hand is not None else "",
        board=tuple(card_str(c) for c in hand.board) if live and hand is not None else (),
        pot=hand.pot if in_progress and hand is not None else 0,
        button=button,
        small_blind_seat=sb,
        big_blind_seat=bb,
        seats=seats,
        level=record.level,
        to_act=_to_act(record, decision_seconds, away_seconds),
        your_seat=your_seat,
        closed=record.closed,
        commitment=hand.commitment if live and hand is not None else None,
        pots=tuple(PotView(p.amount, p.eligible) for p in hand.gathered_pots)
        if in_progress and hand is not None
        else (),
        button_draw=shown_draw(table),
        hand_for_hand=record.hand_for_hand,
    )


def _seat_view(
    table: Table,
    seat: int,
    sp: SeatedPlayer,
    viewer: str | None,
    shown: Mapping[int, tuple[int, int]],
    last: LastAction | None,
    names: Mapping[str, str],
) -> SeatView:
    """One seat as ``viewer`` sees it: the viewer's own hole cards, others' only when shown at showdown."""
    hand = table.hand
    in_progress = table.hand_in_progress
    dealt = hand is not None and not hand.is_cancelled and seat in hand.seats
    cards: tuple[str, ...] = ()
    if dealt and hand is not None:
        if sp.player == viewer and (in_progress or hand.is_over):
            cards = tuple(card_str(c) for c in hand.hole_cards(seat))
        elif seat in shown:
            cards = tuple(card_str(c) for c in shown[seat])
    status = "waiting"
    bet = 0
    if in_progress and dealt and hand is not None:
        status = str(hand.status(seat))
        bet = hand.current_bet(seat)
    last_view = LastActionView(last.kind, last.amount, last.all_in) if last is not None else None
    return SeatView(
        seat,
        sp.player,
        table.stack(seat),
        bet,
        status,
        sp.away,
        cards,
        sp.bank.seconds,
        last_view,
        name=names.get(sp.player, sp.player),
    )


def _to_act(record: TableRecord, decision_seconds: int, away_seconds: int) -> ToAct | None:
    """Who is to act, their options and deadlines (rule 16); None when nobody is."""
    table = record.table
    awaiting = table.awaiting(normal=decision_seconds, when_away=away_seconds)
    hand = table.hand
    if awaiting is None or hand is None:
        return None
    options = hand.options()
    since = record.updated_at or record.dealt_at
    deadlines = table.decision_deadlines(since, normal=decision_seconds, when_away=away_seconds) if since else None
    return ToAct(
        seat=awaiting.seat,
        player=awaiting.player,
        seq=awaiting.seq,
        seconds=awaiting.seconds,
        to_call=options.to_call if options else 0,
        can_check=bool(options.can_check) if options else False,
        min_raise_to=options.min_raise_to if options else None,
        max_raise_to=options.max_raise_to if options else None,
        time_bank=awaiting.time_bank,
        on_time_bank=awaiting.on_time_bank,
        deadline=deadlines.deadline if deadlines else None,
        bank_deadline=deadlines.bank_deadline if deadlines else None,
    )


def table_push(deps: Deps, record: TableRecord, event: str) -> TablePush:
    """The push of the table to its connections: each seated player their own view, everyone else the observer's.

    Views are built only for the viewers connected (``Pushes.to_table_views``).
    """

    names: dict[str, str] | None = None

    def view(player: str | None) -> dict[str, Any]:
        nonlocal names
        if names is None:  # once a push, and only when someone is connected
            names = names_of(deps, record.table.players.values())
        viewer = player if player in record.table.players.values() else None
        seen = table_view(
            record, viewer, decision_seconds=record.decision_seconds, away_seconds=record.away_seconds, names=names
        )
        return {"event": event, "table": seen.to_dict()}

    return TablePush(record.tournament_id, record.table_id, view)


def push_table(deps: Deps, record: TableRecord, event: str) -> None:
    """Push the table to its connections (:func:`table_push`)."""
    deps.pushes.many([table_push(deps, record, event)])


def follow_write(deps: Deps, record: TableRecord) -> Awaiting | None:
    """What follows a committed table write but its pushes: the hand's end to the coordinator, or the next time-out.

    Answers the decision now awaited, whose time-out was armed (None: none is).
    """
    if _hand_ended(deps, record):
        return None
    return arm(deps, record)


def follow_writes(deps: Deps, records: Sequence[TableRecord]) -> None:
    """``follow_write`` of each record, their time-outs armed together (``TimeoutScheduler.arm_many``)."""
    armed: list[tuple[TimeoutDue | RebuyDue, int]] = []
    for record in records:
        found = None if _hand_ended(deps, record) else _timeout(record)
        if found is not None:
            armed.append((found[0], found[1].seconds))
    if armed:
        deps.timers.arm_many(armed)


def follow_settlement(deps: Deps, settled: TablesSettled, records: Mapping[str, TableRecord]) -> None:
    """What follows the coordinator's commit: the dealt tables' time-outs armed together, then one round of pushes
    (each table with its event, each player their message). ``records``: the tables as stored; one missing is
    skipped (nothing to push)."""
    follow_writes(deps, [records[t] for t in settled.dealt if t in records])
    pushes: list[Push] = [table_push(deps, records[t], settled.event(t)) for t in settled.tables if t in records]
    pushes += [PlayerPush(player, message) for player, message in settled.players]
    deps.pushes.many(pushes)


def _hand_ended(deps: Deps, record: TableRecord) -> bool:
    """Whether the write ended a hand the coordinator has yet to settle: its end is then sent to it."""
    table = record.table
    hand = table.hand
    if hand is not None and hand.is_over and not hand.is_cancelled and record.coordinated_hand < table.hand_number:
        deps.coordination.hand_ended(
            HandEnded(tournament_id=record.tournament_id, table=record.table_id, hand=table.hand_number)
        )
        return True
    return False


def after_write(deps: Deps, record: TableRecord, event: str) -> Awaiting | None:
    """Follow a committed table write: the hand's end to the coordinator, or the next time-out; then the pushes.

    Everything needed is on the table item (the decision times included), so an
    action costs one read and one write of its table and nothing else. Answers
    the decision now awaited, whose time-out was armed (None: none is).
    """
    awaiting = follow_write(deps, record)
    push_table(deps, record, event)
    return awaiting


def arm(deps: Deps, record: TableRecord, now: datetime | None = None) -> Awaiting | None:
    """Arm the time-out of the decision awaited, if any (docs/rules.md, rule 16; an away player gets the short time).

    With ``now`` (the watchdog arms a lost time-out again): for what is left
    of the decision's time at ``now`` (``Table.awaiting_left``), counted from
    the table's last write, so that it applies when the lost one would have
    and never past the table's deadline; else for its whole time.
    """
    found = _timeout(record, now)
    if found is None:
        return None
    due, awaiting = found
    deps.timers.arm(due, awaiting.seconds)
    return awaiting


def _timeout(record: TableRecord, now: datetime | None = None) -> tuple[TimeoutDue, Awaiting] | None:
    """The time-out of the decision awaited (``arm``), and that decision; None: no decision is awaited."""
    table = record.table
    normal, when_away = record.decision_seconds, record.away_seconds
    if now is None:
        awaiting = table.awaiting(normal=normal, when_away=when_away)
    else:
        awaiting = table.awaiting_left(record.updated_at or now, now, normal=normal, when_away=when_away)
    if awaiting is None:
        return None
    # Positional, in the fields' order (one per decision: keywords cost a quarter more).
    due = TimeoutDue(
        record.tournament_id, record.table_id, awaiting.hand, awaiting.seq, awaiting.seat, awaiting.away,
        awaiting.on_time_bank,
    )  # fmt: skip
    return due, awaiting


__all__ = [
    "SeatStatus",
    "after_write",
    "arm",
    "deal",
    "deal_at",
    "follow_settlement",
    "follow_write",
    "follow_writes",
    "push_table",
    "retrying",
    "table_push",
    "table_view",
]
