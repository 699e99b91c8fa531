"""The table view's decision clock and last actions, in the domain (docs/rules.md, rule 16 and 'Defaults';
docs/openapi.json): the table knows when the awaited decision began, so when its own time runs out
(``deadline``) and, once the time bank runs, when the bank does (``bank_deadline``); the hand knows each seat's last
action of the current street."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tourney.domain.hand import ActionKind
from tourney.domain.table import DecisionDeadlines, LastAction, Table

from tests.unit.test_table import DECK, LEVEL, four_handed

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LATER = T0 + timedelta(minutes=5)
"""A later write of the table (a chat, a pending stack adjustment) that does not start a decision."""


def _dealt(now: datetime = T0) -> Table:
    table = four_handed()
    table.start_hand(LEVEL, DECK, now=now)
    return table


def test_rule_16_the_table_gives_the_decision_deadline_from_when_the_decision_began() -> None:
    # Given a hand dealt at T0
    table = _dealt()
    # When the table is asked for the deadlines of the decision awaited, its last write later than the deal
    deadlines = table.decision_deadlines(LATER)
    # Then its own 15 seconds run from the deal, and no bank runs
    assert deadlines == DecisionDeadlines(T0 + timedelta(seconds=15), None)


def test_rule_16_the_next_decision_runs_from_the_action_before_it() -> None:
    # Given a hand dealt at T0 whose first player folds 4 seconds in
    table = _dealt()
    first = table.awaiting()
    assert first is not None
    table.act(first.player, ActionKind.FOLD, hand=first.hand, seq=first.seq, now=T0 + timedelta(seconds=4))
    # Then the next decision's 15 seconds run from that fold
    assert table.decision_deadlines(LATER) == DecisionDeadlines(T0 + timedelta(seconds=19), None)


def test_rule_16_an_away_players_deadline_is_the_short_time() -> None:
    # Given a hand dealt at T0 whose first player to act is away
    table = _dealt()
    awaited = table.awaiting()
    assert awaited is not None
    table.set_away(awaited.player)
    # Then the decision's own time is the away time, 5 seconds
    assert table.decision_deadlines(LATER) == DecisionDeadlines(T0 + timedelta(seconds=5), None)


def test_rule_16_once_the_time_bank_runs_the_table_gives_the_bank_deadline() -> None:
    # Given a decision whose own 15 seconds ran out: the player's 30-second bank starts then
    table = _dealt()
    awaited = table.awaiting()
    assert awaited is not None
    ran_out = T0 + timedelta(seconds=15)
    table.timeout(awaited.seat, hand=awaited.hand, seq=awaited.seq, now=ran_out)
    # Then the deadline is when its own time ran out, and the bank's deadline 30 seconds later
    assert table.decision_deadlines(LATER) == DecisionDeadlines(ran_out, ran_out + timedelta(seconds=30))


def test_rule_16_a_table_that_did_not_note_the_start_counts_from_its_last_write() -> None:
    # Given a hand dealt without a time (a table stored before the decision clock was kept)
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    # Then the decision runs from the table's last write, as the watchdog reads it
    assert table.decision_deadlines(LATER) == DecisionDeadlines(LATER + timedelta(seconds=15), None)


def test_rule_16_the_decision_clock_survives_the_tables_plain_data() -> None:
    # Given a hand dealt at T0, stored and read back
    table = Table.from_dict(_dealt().to_dict())
    # Then the decision still runs from T0
    assert table.decision_deadlines(LATER) == DecisionDeadlines(T0 + timedelta(seconds=15), None)


def test_rule_16_no_deadline_between_hands() -> None:
    assert four_handed().decision_deadlines(LATER) is None


def test_rule_16_each_seat_has_its_last_action_of_the_street() -> None:
    # Given a hand dealt four-handed: the first player raises to 300, the next calls, the next folds
    table = _dealt()
    plays = [(ActionKind.RAISE, 300), (ActionKind.CALL, None), (ActionKind.FOLD, None)]
    seats = []
    for kind, amount in plays:
        awaited = table.awaiting()
        assert awaited is not None
        seats.append(awaited.seat)
        table.act(awaited.player, kind, amount, hand=awaited.hand, seq=awaited.seq, now=T0)
    # Then each of them has that action, the raise and the call with their amounts; the fourth seat has none yet
    last = table.last_actions()
    assert last[seats[0]] == LastAction("raise", 300, False)
    assert last[seats[1]] == LastAction("call", 300, False)
    assert last[seats[2]] == LastAction("fold", None, False)
    assert set(last) == set(seats)
    assert LastAction("raise", 300, False).to_dict() == {"kind": "raise", "amount": 300, "all_in": False}
    assert LastAction("fold", None, False).to_dict() == {"kind": "fold"}


def test_rule_16_last_actions_start_again_on_each_street() -> None:
    # Given a hand whose pre-flop betting closed (everyone called, the big blind checked)
    table = _dealt()
    start = table.hand
    assert start is not None
    while table.hand is not None and str(table.hand.street) == "preflop":
        awaited = table.awaiting()
        assert awaited is not None
        options = table.hand.options()
        kind = ActionKind.CHECK if options is not None and options.can_check else ActionKind.CALL
        table.act(awaited.player, kind, hand=awaited.hand, seq=awaited.seq, now=T0)
    # Then on the flop nobody has acted yet
    assert table.last_actions() == {}
