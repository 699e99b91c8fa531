"""A tournament's life over any sequence of moves (docs/rules.md, rules 2, 17, 19; ``domain/life.py``).

From scheduled, any sequence of moves at increasing instants (each either
allowed or refused) keeps the status on the graph of allowed moves, a refused
move changes nothing, and a tournament that finished, was cancelled or was
compensated never changes status again (a finished or compensated one not at all).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from tourney.domain.errors import TourneyError
from tourney.domain.life import TournamentLife
from tourney.domain.registration import TournamentStatus

S = TournamentStatus
ALLOWED = {
    S.SCHEDULED: {S.SCHEDULED, S.REGISTERING, S.CANCELLED},
    S.REGISTERING: {S.REGISTERING, S.RUNNING, S.CANCELLED},
    S.RUNNING: {S.RUNNING, S.TERMINATED, S.FINISHED, S.CANCELLED},
    S.TERMINATED: {S.TERMINATED, S.RUNNING, S.FINISHED},
    S.FINISHED: {S.FINISHED},
    S.CANCELLED: {S.CANCELLED},
}
"""The status a move may lead to from each status (the same status: a move that only stamps, or answers again)."""

T0 = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
START = T0 + timedelta(hours=1)

Move = Callable[[TournamentLife, datetime], TournamentLife]
MOVES: tuple[Move, ...] = (
    lambda life, now: life.announce(),
    lambda life, now: life.close_registration(now),
    lambda life, now: life.deal_first_hand(now),
    lambda life, now: life.terminate(now, "watchdog", "stalled"),
    lambda life, now: life.restart(now, "op", "back", first_deal=life.started_at is None),
    lambda life, now: life.cancel(now, "op", "why"),
    lambda life, now: life.give_up_start("sweeper", "never dealt"),
    lambda life, now: life.complete_cancellation(now),
    lambda life, now: life.compensate(now),
    lambda life, now: life.finish(now),
)


def _over(life: TournamentLife) -> bool:
    return life.status in (S.FINISHED, S.CANCELLED) or life.compensated


@given(
    st.lists(
        st.tuples(st.integers(0, len(MOVES) - 1), st.integers(0, 30 * 60 * 1000)),
        max_size=40,
    )
)
def test_rule_17_any_sequence_of_moves_stays_on_the_graph_and_an_ended_tournament_never_changes(
    steps: list[tuple[int, int]],
) -> None:
    # Given a scheduled tournament
    life = TournamentLife.scheduled("t1", START)
    now = T0
    for move, after_ms in steps:
        # When any move is asked a while later
        now += timedelta(milliseconds=after_ms)
        try:
            moved = MOVES[move](life, now)
        except TourneyError:
            moved = life  # Then a refusal changes nothing
        # Then the status went along an allowed move
        assert moved.status in ALLOWED[life.status]
        # And an ended tournament keeps its status; a finished or compensated one keeps everything
        if _over(life):
            assert moved.status is life.status
            if life.status is S.FINISHED or life.compensated:
                assert moved == life
        life = moved
