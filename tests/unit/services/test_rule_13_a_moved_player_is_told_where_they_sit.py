"""docs/rules.md, rule 13: a player moved to another table (to balance the tables, or because their table was broken)
is told where they now sit, so that a client opens that table (the ``moved`` push, docs/interfaces.md)."""

from __future__ import annotations

import random

from tourney.adapters.memory import FrozenClock
from tourney.bootstrap import bootstrap_memory
from tourney.domain.registration import TournamentStatus

from tests.support.driver import Driver
from tests.support.entries import entered


def test_rule_13_every_moved_player_is_pushed_the_table_and_seat_they_now_hold() -> None:
    # Given a freezeout of 14 players at tables of 6, every player connected to the WebSocket API
    clock = FrozenClock()
    services = bootstrap_memory(clock=clock, rng=random.Random(3))
    names = [f"p{i:02d}" for i in range(14)]
    tid, start_at = entered(
        services, clock, names, 5_000,
        name="Moves", format="freezeout", buy_in=1_000, entry_fee=100, seats_per_table=6, level_minutes=3,
        tournament_id="moves",
    )  # fmt: skip
    pushes = services.adapters.pushes
    for name in names:
        pushes.connect(f"c-{name}", name)
    clock.set(start_at)
    assert services.start.start_due(tid).started
    driver = Driver(services, rng=random.Random(3))
    driver.run_workflows()
    store = services.adapters.store

    def seats() -> dict[str, tuple[str, int]]:
        return {p: (r.table_id, s) for r in store.tables.list(tid) for s, p in r.table.players.items()}

    # When the tournament is played to its end, step by step
    moved: list[tuple[str, str, int]] = []
    before = seats()
    for _ in range(200_000):
        if store.tournaments.get(tid).status is not TournamentStatus.RUNNING:
            break
        seen = len(pushes.deliveries)
        if not driver.step(tid):
            due = services.adapters.timers.next_due()
            assert due is not None
            clock.set(max(due, clock.now()))
        else:
            clock.advance(3.0)
        driver.fire_due_timers()
        driver.drain_coordinator()
        after = seats()
        changed = {p: where for p, where in after.items() if p in before and before[p][0] != where[0]}
        told = {
            d.player: d.message for d in pushes.deliveries[seen:] if d.message.get("event") == "moved"
        }  # fmt: skip
        # Then each player seated at another table than before was told that table (and a seat), and only they were
        for player, (table, seat) in changed.items():
            assert player in told, f"{player} moved to table {table} and was not told"
            message = told[player]
            assert (message["tournament_id"], message["table"]) == (tid, table)
            assert 1 <= message["seat"] <= 6  # the final table's redraw may seat them again later in the same step
            assert message["player_id"] == player and message["reason"] in ("balancing", "breaking", "lone_player")
            assert message["from_table"] == before[player][0]
            moved.append((player, table, seat))
        assert set(told) == set(changed)
        before = after
    assert store.tournaments.get(tid).status is TournamentStatus.FINISHED
    assert moved, "no player was moved in this tournament"
