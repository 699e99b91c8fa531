"""The watchdog's resends of a lost hand end back off (found by a chaos run, seed 811269064, fields to 150).

docs/rules.md, rule 17: play that stops is detected and recovered. A hand end that
reaches no coordinator (its sender died after the table's write) is sent
again by the watchdog. It used to be sent again at every run of the watchdog,
each minute, for every table waiting: in a rebuy tournament of 59 heads-up
tables under a crash rate of 8 %, every failed delivery held the tournament's
FIFO group for the visibility timeout (180 s), the tables waited, the watchdog
added about 58 messages a minute, and the group's backlog grew to 66,000 hand
ends: the tournament never ended. Now a hand end is sent again after 1, 2, 4,
8, ... minutes of quiet, and the queue itself drops a send of the same event
within five minutes (SQS FIFO deduplication, which the simulated cloud now
models as the AWS adapter configures it).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tourney.adapters.memory import EPOCH, FrozenClock
from tourney.bootstrap import Services
from tourney.services.messages import HandEnded, deduplication_id
from tourney.services.recover import RESEND_AFTER, resend_due
from tourney.simulation.chaos import plan_run, run_one
from tourney.simulation.cloud import Cloud

from tests.unit.services.conftest import started
from tests.unit.services.test_rule_17_termination_defects import fold_to_the_end_of_the_hand


def _hand_end_lost(services: Services, create: Callable[..., str], clock: FrozenClock) -> tuple[str, HandEnded]:
    """A freezeout whose first hand at table 1 is over, its hand end lost with the invocation that sent it."""
    tid = started(services, create, clock, players=4, seats_per_table=4)
    coordination = services.adapters.coordination
    while coordination.take() is not None:
        pass
    fold_to_the_end_of_the_hand(services, tid)  # a hand end the coordination must settle
    ended = coordination.take()
    assert isinstance(ended, HandEnded) and coordination.take() is None
    return tid, ended


def test_rule_17_the_watchdog_sends_a_lost_hand_end_again_after_1_2_4_8_and_16_minutes(
    services: Services, create: Callable[..., str], clock: FrozenClock
) -> None:
    # Given a hand end lost at table 1
    _, ended = _hand_end_lost(services, create, clock)
    resent_at: list[int] = []
    # When the watchdog runs every minute for 17 minutes and nothing coordinates the hand
    for minute in range(1, 18):
        clock.advance(60)
        report = services.recovery.watch()
        if report.resent:
            resent_at.append(minute)
            assert report.resent == ("1",)
            assert services.adapters.coordination.take() == ended
    # Then it sent the hand end again at 1, 2, 4, 8 and 16 minutes of quiet only
    assert resent_at == [1, 2, 4, 8, 16]
    # And once the coordinator settles it, nothing more is sent
    services.coordinator.on_hand_ended(ended)
    clock.advance(16 * 60)
    assert services.recovery.watch().resent == ()


@pytest.mark.parametrize(
    ("periods", "due"),
    [(0, False), (0.99, False), (1, True), (1.99, True), (2, True), (3, False), (4, True), (7, False), (8, True)],
)
def test_rule_17_resend_due_at_powers_of_two_of_the_resend_period(periods: float, due: bool) -> None:
    assert resend_due(RESEND_AFTER * periods) is due


def test_rule_17_the_simulated_fifo_drops_a_send_of_the_same_event_within_five_minutes_as_sqs_does() -> None:
    # Given the simulated cloud and a hand end sent to the coordinator's FIFO queue
    cloud = Cloud(EPOCH)
    fifo = cloud.coordination
    ended = HandEnded(tournament_id="t1", table="3", hand=7)
    fifo.hand_ended(ended)
    # When the same event is sent again within five minutes, and another event too
    cloud.clock.move_to(299_999_999)
    fifo.hand_ended(ended)
    fifo.hand_ended(HandEnded(tournament_id="t1", table="3", hand=8))
    # Then the queue holds the first send and the other event only (the adapter's deduplication id)
    assert fifo.deduplicated == 1
    assert [m.hand for m, _ in fifo._groups["t1"]] == [7, 8]
    assert deduplication_id(ended) == "hand#t1#3#7"
    # And five minutes after the first send, the same event is accepted again
    cloud.clock.move_to(300_000_000)
    fifo.hand_ended(ended)
    assert [m.hand for m, _ in fifo._groups["t1"]] == [7, 8, 7]


def test_rule_17_a_rebuy_tournament_of_59_heads_up_tables_under_faults_ends() -> None:
    # The run that found it: 117 players at 2 seats, an 8 % crash rate, duplicates; it ran two days and never ended
    details, violations = run_one(plan_run(811_269_064, players_max=150, wide=False))  # the plan as it was drawn then
    assert violations == []
    assert details["players"] == 117 and details["outcome"] == "finished"
