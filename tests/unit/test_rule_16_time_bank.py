"""The time bank (docs/rules.md, 'Defaults'): 30 s, spent when a decision's own time runs out, +10 s a level up to 60.

Never spent for an away player; acting on it spends the whole seconds used; it moves with a moved player.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import StaleAction
from tourney.domain.hand import ActionKind, Checked, Folded
from tourney.domain.structure import BlindLevel
from tourney.domain.table import Awaiting, BankStarted, Table, TimeBank

from tests.unit.test_table import DECK, LEVEL, fold_to_big_blind, four_handed

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _level(number: int) -> BlindLevel:
    return BlindLevel(number=number, small_blind=50 * number, big_blind=100 * number)


def test_rule_16_the_time_bank_starts_when_the_decisions_own_time_runs_out() -> None:
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    w = table.awaiting()
    assert w is not None and w.time_bank == 30 and not w.on_time_bank
    started = table.timeout(w.seat, hand=w.hand, seq=w.seq, now=T0)
    assert started == BankStarted(w.seat, 30)
    on_bank = table.awaiting()
    assert on_bank is not None and on_bank.on_time_bank and on_bank.seconds == 30 and on_bank.seq == w.seq
    assert not table.seats[w.seat].away
    # The first time-out delivered again is stale: the bank runs.
    with pytest.raises(StaleAction):
        table.timeout(w.seat, hand=w.hand, seq=w.seq, now=T0 + timedelta(seconds=1))
    # The bank runs out: the time-out applies, the player is away, the bank is empty.
    record = table.timeout(w.seat, hand=w.hand, seq=w.seq, time_bank=True, now=T0 + timedelta(seconds=30))
    assert isinstance(record, Checked | Folded) and record.timed_out
    assert table.seats[w.seat].away and table.seats[w.seat].bank.seconds == 0
    with pytest.raises(StaleAction):
        table.timeout(w.seat, hand=w.hand, seq=w.seq, time_bank=True, now=T0 + timedelta(seconds=31))


def on_the_time_bank() -> tuple[Table, Awaiting]:
    """Four-handed, the first decision of the first hand past its own time: its time bank runs from ``T0``."""
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    w = table.awaiting()
    assert w is not None
    table.timeout(w.seat, hand=w.hand, seq=w.seq, now=T0)
    return table, w


def test_rule_16_acting_on_the_time_bank_spends_the_whole_seconds_used() -> None:
    table, w = on_the_time_bank()
    table.act(w.player, ActionKind.FOLD, hand=w.hand, seq=w.seq, now=T0 + timedelta(seconds=7.2))
    assert table.seats[w.seat].bank.seconds == 30 - 8
    assert not table.seats[w.seat].away
    # The bank's own time-out comes later: stale, it changes nothing.
    with pytest.raises(StaleAction):
        table.timeout(w.seat, hand=w.hand, seq=w.seq, time_bank=True, now=T0 + timedelta(seconds=30))
    assert table.seats[w.seat].bank.seconds == 22


def test_rule_16_an_away_player_never_spends_the_time_bank() -> None:
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    w = table.awaiting()
    assert w is not None
    table.set_away(w.player)
    away = table.awaiting()
    assert away is not None and away.away and away.seconds == 5 and away.time_bank == 0
    record = table.timeout(w.seat, hand=w.hand, seq=w.seq, armed_for_away=True, now=T0)
    assert isinstance(record, Checked | Folded)
    assert table.seats[w.seat].bank.seconds == 30


def test_rule_16_the_time_bank_grows_ten_seconds_a_level_up_to_sixty() -> None:
    bank = TimeBank().at_level(1)
    assert bank.seconds == 30
    assert bank.at_level(1) is bank  # a second hand at the same level adds nothing
    assert [bank.at_level(n).seconds for n in (2, 3, 4, 5, 9)] == [40, 50, 60, 60, 60]
    table = four_handed()
    table.start_hand(LEVEL, DECK)
    fold_to_big_blind(table)
    table.start_hand(_level(3), DECK)
    assert {sp.bank.seconds for sp in table.seats.values()} == {50}


def test_rule_16_a_moved_player_keeps_their_time_bank_and_a_table_keeps_a_running_bank() -> None:
    table, w = on_the_time_bank()
    again = Table.from_dict(table.to_dict())
    on_bank = again.awaiting()
    assert on_bank is not None and on_bank.on_time_bank and on_bank.seconds == 30
    again.act(w.player, ActionKind.FOLD, hand=w.hand, seq=w.seq, now=T0 + timedelta(seconds=20))
    fold_to_big_blind(again)
    sitting = again.remove_player(w.player)
    assert sitting.bank.seconds == 10
    other = Table(number=2, seat_count=9)
    other.seat_player(w.player, 5, sitting.stack, away=sitting.away, bank=sitting.bank)
    assert other.seats[5].bank == sitting.bank


def test_rule_16_a_table_awaits_only_the_decision_in_front_of_it() -> None:
    table = four_handed()
    assert not table.awaits(1, 0, 1)
    table.start_hand(LEVEL, DECK)
    w = table.awaiting()
    assert w is not None and table.awaits(w.hand, w.seq, w.seat)
    assert not table.awaits(w.hand + 1, w.seq, w.seat)
    assert not table.awaits(w.hand, w.seq + 1, w.seat)
    assert not table.awaits(w.hand, w.seq, w.seat % 4 + 1)
    table.act(w.player, ActionKind.FOLD)
    assert not table.awaits(w.hand, w.seq, w.seat)
