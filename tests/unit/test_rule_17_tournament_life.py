"""A tournament's life (docs/rules.md, rules 2, 17, 19): which move is allowed from which status, and what it stamps.

``domain/life.py`` decides every change of a tournament's status; the services
read the stored record, ask it and write what it answers. The table below is
every status (and the facts that split one: a hand dealt or not, a recovery
compensated or not, a cancel complete or not) against every move: the status a
move leads to, or the refusal the API answers today.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from tourney.domain.errors import AlreadyStarted, Conflict, NotStartedYet, TourneyError
from tourney.domain.life import RESTART_WINDOW, TournamentLife, window_left
from tourney.domain.registration import TournamentStatus

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
START = T0 + timedelta(hours=1)
TERMINATED_AT = START + timedelta(minutes=45, milliseconds=250)

SCHEDULED = TournamentLife.scheduled("t1", START)
REGISTERING = SCHEDULED.announce()
NEVER_DEALT = REGISTERING.close_registration(START)
RUNNING = NEVER_DEALT.deal_first_hand(START + timedelta(seconds=5))
TERMINATED = RUNNING.terminate(TERMINATED_AT, "watchdog", "tables made no progress")
COMPENSATED = TERMINATED.compensate(TERMINATED_AT + RESTART_WINDOW)
FINISHED = RUNNING.finish(START + timedelta(hours=3))
CANCEL_CUT_SHORT = REGISTERING.cancel(T0 + timedelta(minutes=5), "op", "no room")
CANCELLED = CANCEL_CUT_SHORT.complete_cancellation(T0 + timedelta(minutes=6))

LIVES = {
    "scheduled": SCHEDULED,
    "registering": REGISTERING,
    "undealt": NEVER_DEALT,
    "running": RUNNING,
    "terminated": TERMINATED,
    "compens'd": COMPENSATED,
    "finished": FINISHED,
    "cut_short": CANCEL_CUT_SHORT,
    "cancelled": CANCELLED,
}

IN_WINDOW = TERMINATED_AT + timedelta(minutes=10)
MOVES: dict[str, Callable[[TournamentLife], TournamentLife]] = {
    "announce": lambda life: life.announce(),
    "close": lambda life: life.close_registration(START),
    "deal": lambda life: life.deal_first_hand(START + timedelta(minutes=1)),
    "terminate": lambda life: life.terminate(IN_WINDOW, "op", "why"),
    "restart": lambda life: life.restart(IN_WINDOW, "op", "why", first_deal=False),
    "cancel": lambda life: life.cancel(IN_WINDOW, "op", "why"),
    "give_up": lambda life: life.give_up_start("sweeper", "never dealt"),
    "complete": lambda life: life.complete_cancellation(IN_WINDOW),
    "compensate": lambda life: life.compensate(TERMINATED_AT + RESTART_WINDOW),
    "finish": lambda life: life.finish(IN_WINDOW),
}

# What each move leads to from each life: a status (STATUSES), or the refusal (REFUSALS: what the API answers).
TABLE = """
            announce   close      deal       terminate  restart    cancel     give_up    complete   compensate finish
scheduled   reg        NotYet     Conflict   Conflict   Conflict   canc       Started    Conflict   Conflict   Conflict
registering Conflict   run        Conflict   Conflict   Conflict   canc       Started    Conflict   Conflict   Conflict
undealt     Conflict   NotYet     run        term       Conflict   Started    canc       Conflict   Conflict   fin
running     Conflict   NotYet     run        term       Conflict   Started    Started    Conflict   Conflict   fin
terminated  Conflict   NotYet     Conflict   Conflict   run        Started    Started    Conflict   term       fin
compens'd   Conflict   NotYet     Conflict   Conflict   Conflict   Started    Started    Conflict   term       Conflict
finished    Conflict   NotYet     Conflict   Conflict   Conflict   Started    Started    Conflict   Conflict   Conflict
cut_short   Conflict   NotYet     Conflict   Conflict   Conflict   canc       canc       canc       Conflict   Conflict
cancelled   Conflict   NotYet     Conflict   Conflict   Conflict   canc       canc       canc       Conflict   Conflict
"""
REFUSALS: dict[str, type[TourneyError]] = {"Conflict": Conflict, "NotYet": NotStartedYet, "Started": AlreadyStarted}
STATUSES = {"reg": "registering", "run": "running", "term": "terminated", "fin": "finished", "canc": "cancelled"}


def _table() -> list[tuple[str, str, str]]:
    header, *rows = [line.split() for line in TABLE.strip().splitlines()]
    return [(row[0], move, outcome) for row in rows for move, outcome in zip(header, row[1:], strict=True)]


def test_rule_17_the_table_names_every_life_and_every_move() -> None:
    assert {life for life, _, _ in _table()} == set(LIVES)
    assert {move for _, move, _ in _table()} == set(MOVES)
    assert len(_table()) == len(LIVES) * len(MOVES)


@pytest.mark.parametrize(("life", "move", "outcome"), _table())
def test_rule_17_each_move_is_allowed_or_refused_from_each_status(life: str, move: str, outcome: str) -> None:
    # Given a tournament at that point of its life
    before = LIVES[life]
    if outcome in REFUSALS:
        # When the move is asked, Then it is refused with the error the API answers today
        with pytest.raises(REFUSALS[outcome]) as refused:
            MOVES[move](before)
        assert type(refused.value) is REFUSALS[outcome]
    else:
        # When the move is asked, Then it leads to that status
        assert MOVES[move](before).status is TournamentStatus(STATUSES[outcome])


def test_rule_17_a_restart_is_allowed_at_19_59_999_and_refused_at_20_00_000() -> None:
    # Given a tournament terminated at TERMINATED_AT
    last_moment = TERMINATED_AT + RESTART_WINDOW - timedelta(milliseconds=1)
    # When a restart is asked a millisecond before the 20 minutes are over, Then it restarts
    assert TERMINATED.can_restart(last_moment)
    restarted = TERMINATED.restart(last_moment, "op", "tables back", first_deal=False)
    assert (restarted.status, restarted.restarted_at, restarted.restarted_by) == (
        TournamentStatus.RUNNING,
        last_moment,
        "op",
    )
    # When it is asked at termination + 20:00.000 exactly, Then it is refused (409) and says why
    assert not TERMINATED.can_restart(TERMINATED_AT + RESTART_WINDOW)
    with pytest.raises(Conflict, match="its 20 minutes are over"):
        TERMINATED.restart(TERMINATED_AT + RESTART_WINDOW, "op", "too late", first_deal=False)


def test_rule_17_compensation_waits_for_termination_plus_20_minutes_exactly() -> None:
    # Given a tournament terminated at TERMINATED_AT
    # When compensation is asked a millisecond before the 20 minutes are over, Then it is refused
    with pytest.raises(Conflict):
        TERMINATED.compensate(TERMINATED_AT + RESTART_WINDOW - timedelta(milliseconds=1))
    assert window_left(TERMINATED_AT, TERMINATED_AT + RESTART_WINDOW - timedelta(milliseconds=1)) > timedelta(0)
    # When it is asked at 20:00.000, Then the tournament ends compensated, terminated still
    compensated = TERMINATED.compensate(TERMINATED_AT + RESTART_WINDOW)
    assert compensated.compensated and not compensated.recovering
    assert compensated.ended_at == TERMINATED_AT + RESTART_WINDOW


def test_rule_17_a_termination_stamps_who_when_and_why_and_a_restart_keeps_them() -> None:
    # Given a running tournament, When the watchdog terminates it
    assert (TERMINATED.terminated_at, TERMINATED.terminated_by, TERMINATED.termination_reason) == (
        TERMINATED_AT,
        "watchdog",
        "tables made no progress",
    )
    assert TERMINATED.recovering and TERMINATED.in_play
    # When an operator restarts it, Then it runs again and the termination is still on record
    restarted = TERMINATED.restart(IN_WINDOW, "op", "fixed", first_deal=False)
    assert restarted.running and restarted.terminated_at == TERMINATED_AT
    assert (restarted.restarted_by, restarted.restart_reason, restarted.started_at) == (
        "op",
        "fixed",
        RUNNING.started_at,
    )


def test_rule_17_a_restart_of_a_tournament_terminated_before_its_first_deal_starts_it() -> None:
    # Given a tournament terminated during its start, before any hand was dealt
    terminated = NEVER_DEALT.terminate(START + timedelta(minutes=2), "watchdog", "start stalled")
    # When it restarts and its first hand is dealt, Then it has started at the restart
    restarted = terminated.restart(START + timedelta(minutes=5), "watchdog", "tables can deal", first_deal=True)
    assert restarted.started_at == START + timedelta(minutes=5)


def test_rule_17_the_refusals_say_what_the_operator_answer_says() -> None:
    # Given a running tournament, When an operator asks to restart it, Then the 409 says only a terminated one restarts
    with pytest.raises(Conflict, match="only a terminated tournament, not yet compensated, restarts"):
        RUNNING.verify_restart(IN_WINDOW)
    # When one asks to terminate a finished tournament, Then there is nothing to terminate
    with pytest.raises(Conflict, match="there is nothing to terminate"):
        FINISHED.terminate(IN_WINDOW, "op", "why")
    # When one asks to cancel a running one, Then it has started (409 already_started)
    with pytest.raises(AlreadyStarted, match="only a tournament that has not started can be cancelled"):
        RUNNING.cancel(IN_WINDOW, "op", "why")


def test_rule_17_6_a_start_whose_first_hand_was_dealt_elsewhere_is_not_given_up() -> None:
    # Given a start that closed registration; the coordinator dealt a first hand the record does not show yet
    # When the sweeper gives the start up, Then it is refused: the first deal won
    with pytest.raises(AlreadyStarted):
        NEVER_DEALT.give_up_start("sweeper", "never dealt", first_hand_dealt=True)
    # And without that deal it is cancelled, its close of registration kept
    given_up = NEVER_DEALT.give_up_start("sweeper", "never dealt")
    assert (given_up.status, given_up.closed_at, given_up.cancelled_by) == (
        TournamentStatus.CANCELLED,
        START,
        "sweeper",
    )


def test_rule_17_6_a_start_is_given_up_an_hour_after_its_start_time_and_restarted_after_ten_minutes_quiet() -> None:
    # Given a start that closed registration at its start time and never dealt
    assert NEVER_DEALT.never_dealt and NEVER_DEALT.has_not_started
    # Then it is given up one hour after its start time, not a millisecond before
    assert not NEVER_DEALT.start_given_up(START + timedelta(hours=1) - timedelta(milliseconds=1))
    assert NEVER_DEALT.start_given_up(START + timedelta(hours=1))
    # And a tournament that dealt is never given up
    assert not RUNNING.start_given_up(START + timedelta(days=1))
    assert not RUNNING.has_not_started


def test_rule_17_a_step_of_one_termination_knows_a_restart_or_a_second_termination_from_it() -> None:
    # Given a tournament terminated at TERMINATED_AT
    assert TERMINATED.still_terminated(TERMINATED_AT) and COMPENSATED.still_terminated(TERMINATED_AT)
    # When it restarts, or restarts and is terminated again, Then a step of the first termination no longer applies
    restarted = TERMINATED.restart(IN_WINDOW, "op", "fixed", first_deal=False)
    again = restarted.terminate(IN_WINDOW + timedelta(minutes=1), "watchdog", "stalled again")
    assert not restarted.still_terminated(TERMINATED_AT) and not again.still_terminated(TERMINATED_AT)
    assert again.still_terminated(IN_WINDOW + timedelta(minutes=1))
