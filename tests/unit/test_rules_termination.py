"""docs/rules.md, 'Termination and recovery' (rule 17): scenario tests with exact chips, cents and instants.

``test_recovery.py`` proves the compensation rules 17.3 a-d and 17.4-17.5 on
given facts, ``test_clock.py`` the restart on the same level, ``test_table.py``
the cancellation of one hand and ``test_registration.py`` rule 17.6. These
tests add where the facts come from: ``started_at`` is the first hand dealt,
the stacks compensated are those of the start of the cancelled hands, and the
compensation is paid when the 20-minute restart window has passed.
"""

from datetime import UTC, datetime, timedelta

from tourney.domain.cards import parse_cards
from tourney.domain.formats import TournamentFormat
from tourney.domain.hand import ActionKind
from tourney.domain.recovery import (
    CompensationOutcome,
    PaidIn,
    Stack,
    Termination,
    compensate,
    compensation_outcome,
)
from tourney.domain.structure import BlindLevel, TournamentConfig
from tourney.domain.table import Table
from tourney.domain.tournament import TournamentState
from tourney.simulation.memory import Simulation, SimulationOptions

START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)
LEVEL = BlindLevel(number=5, small_blind=150, big_blind=300)
DECK = list(range(52))


def freezeout_facts(started_at: datetime, terminated_at: datetime, remaining: tuple[Stack, ...]) -> Termination:
    """A 4-player freezeout at 10.00 + 1.00 (pool 40.00, winner takes all), no guarantee."""
    contributions = tuple(PaidIn(p, 100, 1_000) for p in ("ann", "bob", "cy", "dee"))
    return Termination(
        format=TournamentFormat.FREEZEOUT,
        started_at=started_at,
        terminated_at=terminated_at,
        last_rebuy_period_ended=False,
        collected=4_000,
        guarantee=0,
        contributions=contributions,
        prizes_paid=0,
        remaining=remaining,
    )


def test_rule_17_started_at_is_the_first_hand_dealt_and_the_30_minutes_count_from_it() -> None:
    # Given a freezeout whose registration closed at 20:00 and whose first hand was dealt at 20:02
    config = TournamentConfig.for_format(TournamentFormat.FREEZEOUT, buy_in=1_000, entry_fee=100)
    tournament = TournamentState.start("t1", config, {"1": 2, "2": 2})
    before_any_hand = tournament.started_at
    assert tournament.first_hand_dealt(START + timedelta(minutes=2))
    # When the other table deals its first hand at 20:02:40
    assert not tournament.first_hand_dealt(START + timedelta(minutes=2, seconds=40))
    # Then the tournament had not started before its first hand, and started at 20:02, with it
    assert before_any_hand is None
    assert tournament.started_at == START + timedelta(minutes=2)
    stacks = (Stack("ann", 10_000), Stack("bob", 10_000), Stack("cy", 10_000), Stack("dee", 10_000))
    # And terminated at 20:32:00.000 (32 minutes after 20:00, 30:00.000 after the first hand) it is rolled back
    at_30 = freezeout_facts(tournament.started_at, START + timedelta(minutes=32), stacks)
    assert compensation_outcome(at_30) is CompensationOutcome.ROLLBACK
    assert [p.amount for p in compensate(at_30).payments] == [1_100] * 4
    # And one millisecond later the freezeout's pool is paid out
    later = freezeout_facts(tournament.started_at, START + timedelta(minutes=32, milliseconds=1), stacks)
    assert compensation_outcome(later) is CompensationOutcome.PAYOUT


def test_rule_17_1_hands_in_progress_are_cancelled_and_compensation_uses_the_stacks_they_started_with() -> None:
    # Given two heads-up tables of a 4-player freezeout (40,000 chips in play):
    # table 1 ann 6,000 (seat 1, the button) and bob 14,000; table 2 cy 4,000 (seat 3) and dee 16,000 (seat 7, button)
    one, two = Table(number=1, seat_count=9), Table(number=2, seat_count=9)
    one.seat_player("ann", 1, 6_000)
    one.seat_player("bob", 2, 14_000)
    two.seat_player("cy", 3, 4_000)
    two.seat_player("dee", 7, 16_000)
    one.draw_button(deck=parse_cards("As 2c"))
    two.draw_button(deck=parse_cards("2c As"))
    # And a hand in progress at each: ann raised to 900, bob called, bob checked the flop and ann bet 1,000;
    # dee raised to 1,200 and cy is to act
    one.start_hand(LEVEL, DECK)
    one.act("ann", ActionKind.RAISE, 900)
    one.act("bob", ActionKind.CALL)
    one.act("bob", ActionKind.CHECK)
    one.act("ann", ActionKind.BET, 1_000)
    two.start_hand(LEVEL, DECK)
    two.act("dee", ActionKind.RAISE, 1_200)
    assert (one.stack(1), one.stack(2), two.stack(3), two.stack(7)) == (4_100, 13_100, 3_700, 14_800)
    # When the tournament is terminated 45 minutes after its first hand: every hand in progress is cancelled
    restored = [one.cancel_hand(), two.cancel_hand()]
    # Then every stack is back to what it was at the start of its hand, and the cards are void
    assert restored == [{1: 6_000, 2: 14_000}, {3: 4_000, 7: 16_000}]
    assert not one.hand_in_progress and not two.hand_in_progress
    # And the freezeout's pool (40.00, only 1st place paid, so nobody is sure of a prize) is shared by those chips
    stacks = tuple(Stack(sp.player, sp.stack) for table in (one, two) for sp in table.seats.values())
    compensation = compensate(freezeout_facts(START, START + timedelta(minutes=45), stacks))
    assert compensation.outcome is CompensationOutcome.PAYOUT
    assert [(p.player_id, p.amount) for p in compensation.payments] == [
        ("ann", 600),
        ("bob", 1_400),
        ("cy", 400),
        ("dee", 1_600),
    ]


def test_rule_17_2_compensation_is_paid_when_the_20_minute_restart_window_has_passed() -> None:
    # Given a simulated 18-player freezeout (start workflow at 18:00) terminated 45 minutes in, that cannot restart
    report = Simulation(SimulationOptions(players=18, seed=3, terminate_at=45, restart=False)).run().report
    # Then its first hand was dealt as the start workflow's steps ran, within a second of 18:00 ...
    started_at = datetime.fromisoformat(report["tournament"]["started_at"])
    assert timedelta(0) < started_at - datetime(2026, 1, 1, 18, 0, tzinfo=UTC) < timedelta(seconds=1)
    # ... and it is terminated and paid out (a freezeout after 30 minutes) ...
    assert report["tournament"]["status"] == "terminated"
    assert report["termination"]["outcome"] == "payout"
    # ... once the recovery workflow's next attempt finds the 20 minutes over, never before
    terminated_at = datetime.fromisoformat(report["termination"]["at"])
    assert terminated_at == started_at + timedelta(minutes=45)
    ended_at = datetime.fromisoformat(report["tournament"]["ended_at"])
    assert timedelta(minutes=20) <= ended_at - terminated_at <= timedelta(minutes=21)
    # And every remaining player is paid, the pool (18 x 10.00) going out to the cent
    paid = report["termination"]["paid"]
    assert {p["player"] for p in paid} == {r["player"] for r in report["termination"]["remaining"]}
    assert sum(p["amount"] for p in paid) + report["ledger"]["prizes_paid"] == 18_000
    assert report["ledger"]["prize_pool_held"] == 0
