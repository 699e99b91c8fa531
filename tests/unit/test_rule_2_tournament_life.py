"""Registration in a tournament's life (docs/rules.md, rule 2; ``domain/life.py``): announced, closed by the start.

The registration window itself (who may register when) is ``RegistrationWindow``'s
(``test_registration.py``); these are the moves around it: announcing opens it, the
start closes it, and a start still registering a minute past its start time was missed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import AlreadyStarted, NotStartedYet
from tourney.domain.life import START_MISSED, TournamentLife
from tourney.domain.registration import TournamentStatus

START = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def test_rule_2_announcing_opens_registration_and_the_start_closes_it() -> None:
    # Given a scheduled tournament
    scheduled = TournamentLife.scheduled("t1", START)
    assert not scheduled.registering
    # When it is announced, Then registration is open
    registering = scheduled.announce()
    assert registering.registering and registering.has_not_started
    # When the start closes registration, Then it runs with registration closed at that instant, not yet started
    running = registering.close_registration(START)
    assert (running.status, running.closed_at, running.started_at) == (TournamentStatus.RUNNING, START, None)
    assert running.never_dealt


def test_rule_2_registration_closes_once_and_a_later_start_step_is_told_so() -> None:
    # Given a tournament whose start closed registration
    running = TournamentLife.scheduled("t1", START).announce().close_registration(START)
    # When registration is closed again, Then it is refused as the start step answers a tournament not registering
    with pytest.raises(NotStartedYet):
        running.close_registration(START + timedelta(seconds=1))


def test_rule_2_a_start_still_registering_a_minute_past_its_start_time_was_missed() -> None:
    # Given a tournament still registering after its start time
    registering = TournamentLife.scheduled("t1", START).announce()
    # Then the watchdog starts it one minute past the start time, not a millisecond before
    assert not registering.start_missed(START + START_MISSED - timedelta(milliseconds=1))
    assert registering.start_missed(START + START_MISSED)
    # And a Sit&Go, which has no start time, is never missed
    assert not TournamentLife.scheduled("sng", None).announce().start_missed(START + timedelta(days=1))


def test_rule_2_a_cancel_before_the_start_closes_registration_and_one_after_it_is_refused() -> None:
    # Given a registering tournament, When an operator cancels it, Then registration closes then, by whom and why
    registering = TournamentLife.scheduled("t1", START).announce()
    cancelled = registering.cancel(START - timedelta(minutes=5), "op", "venue closed")
    assert (cancelled.status, cancelled.closed_at, cancelled.cancelled_by, cancelled.cancel_reason) == (
        TournamentStatus.CANCELLED,
        START - timedelta(minutes=5),
        "op",
        "venue closed",
    )
    # When the start won the race, Then the cancel is refused (409 already_started)
    with pytest.raises(AlreadyStarted):
        registering.close_registration(START).deal_first_hand(START).cancel(START, "op", "late")


def test_rule_2_the_lobby_counts_the_seated_field_once_the_start_seated_it_and_registrations_before() -> None:
    # Given a tournament registering, then running, finished, and one cancelled before its start
    registering = TournamentLife.scheduled("t1", START).announce()
    running = registering.close_registration(START).deal_first_hand(START)
    # Then only the running and the finished one count the players the start seated
    assert not registering.seated_its_field and not registering.cancel(START, "op", "why").seated_its_field
    assert running.seated_its_field and running.finish(START + timedelta(hours=2)).seated_its_field
