"""One after-hand balancing decision's cost at 1,000 and 250,000 players (docs/architecture.md, 'Scale to design for').

A tournament's tables play hands in random order; each hand ends with a
realistic number of eliminations (none in 92 % of hands, one in 7 %, two in
1 %), and ``Balancing.after_hand`` decides the moves. Only that call is timed:
the field's bookkeeping for the simulation itself is left out. The decision
must not grow with the number of tables: compare ``us_per_call`` for both
field sizes.

``us_per_call`` is the median over batches of 100 consecutive calls of each
batch's mean: on a shared machine a call is now and then preempted for a
scheduler tick (4 ms), which would otherwise dominate a plain mean.
``mean_us`` is that plain mean, kept for comparison.

    .venv/bin/python -m bench.balancing
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from tourney.domain.balancing import Balancing
from tourney.domain.seating import table_sizes

ELIMINATION_ODDS = ((0.92, 0), (0.99, 1), (1.0, 2))
"""Cumulative probability -> players eliminated by one hand."""
BATCH = 100


def _eliminations(rng: random.Random, size: int) -> int:
    draw = rng.random()
    out = next(count for odds, count in ELIMINATION_ODDS if draw < odds)
    return min(out, size - 1)


def measure_balancing(players: int, *, seats: int = 9, calls: int = 100_000, seed: int = 1) -> dict[str, Any]:
    """Time ``calls`` after-hand decisions (or fewer, if the tournament ends) for a field of ``players``."""
    rng = random.Random(seed)
    started = time.perf_counter()
    balancing = Balancing(seats, {f"T{n:05d}": size for n, size in enumerate(table_sizes(players, seats), start=1)})
    setup_ms = (time.perf_counter() - started) * 1000
    tables_at_start = balancing.table_count
    # Tables still in play, for picking one at random in O(1) (swap-remove when broken).
    live = list(balancing.sizes())
    where = {table: index for index, table in enumerate(live)}
    timings: list[int] = []
    eliminations = moves = breaks = 0
    clock = time.perf_counter_ns
    while len(timings) < calls and balancing.players > 1:
        table = live[rng.randrange(len(live))]
        size = balancing.size(table)
        if size == 1:
            continue  # a waiting table does not deal
        out = _eliminations(rng, size)
        before = clock()
        decision = balancing.after_hand(table, out)
        timings.append(clock() - before)
        eliminations += out
        moves += len(decision.moves)
        for gone in decision.broken:
            breaks += 1
            index = where.pop(gone)
            last = live.pop()
            if last != gone:
                live[index] = last
                where[last] = index
    batches = [statistics.fmean(timings[i : i + BATCH]) for i in range(0, len(timings), BATCH)]
    timings.sort()
    return {
        "players": players,
        "seats_per_table": seats,
        "tables_at_start": tables_at_start,
        "setup_ms": round(setup_ms, 1),
        "calls": len(timings),
        "eliminations": eliminations,
        "moves": moves,
        "tables_broken": breaks,
        "players_left": balancing.players,
        "tables_left": balancing.table_count,
        "us_per_call": round(statistics.median(batches) / 1000, 2),
        "mean_us": round(statistics.fmean(timings) / 1000, 2),
        "p50_us": round(timings[len(timings) // 2] / 1000, 2),
        "p99_us": round(timings[len(timings) * 99 // 100] / 1000, 2),
        "max_us": round(timings[-1] / 1000, 2),
    }


def main() -> None:
    for players in (1_000, 250_000):
        print(json.dumps(measure_balancing(players)))


if __name__ == "__main__":
    main()
