"""Round trip of a player action on the local stack: p50 / p99, and the whole run's wall time.

    python -m bench.local_latency [--players 9] [--seats 9] [--time-factor 30] [--seed 3] [--profile FILE]

Starts the local stack from the real template (``LocalRuntime.from_cdk_out``),
plays one tournament over HTTP and WebSocket with the bots of ``tourney
simulate --via local`` and prints, as JSON, the round trip of every action a
bot posted (the POST to its answer: the gateway, the ``api`` handler, the table
read and written in moto, the time-out armed on SQS, the pushes to the
subscribers), the number of actions and pushes, and the wall time.

``--profile FILE``: a cProfile of every thread of the process (each thread gets
its own profiler through ``threading.setprofile``; merged at the end), written
as pstats to FILE, and the top 40 by cumulative time printed to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


class ThreadProfiles:
    """One ``cProfile.Profile`` per thread started after ``install`` (and this one)."""

    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self._lock = threading.Lock()

    def _start(self, *_: Any) -> None:
        profile = cProfile.Profile()
        with self._lock:
            self.profiles.append(profile)
        profile.enable()  # replaces this hook in the thread

    def install(self) -> None:
        threading.setprofile(self._start)
        self._start()

    def dump(self, path: Path) -> None:
        threading.setprofile(None)
        for profile in self.profiles:
            profile.disable()
        stats = pstats.Stats(self.profiles[0])
        for profile in self.profiles[1:]:
            try:
                stats.add(profile)
            except TypeError:  # a profiler that never recorded anything
                continue
        stats.dump_stats(str(path))
        stats.stream = sys.stderr  # type: ignore[attr-defined]
        stats.sort_stats("cumulative").print_stats(40)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--time-factor", type=float, default=30.0)
    parser.add_argument("--level-minutes", type=int, default=1)
    parser.add_argument("--profile", type=Path, default=None)
    args = parser.parse_args(argv)

    from tourney.simulation.local_client import simulate_local
    from tourney.simulation.memory import SimulationOptions

    from infra.local.runtime import LocalRuntime

    profiles = ThreadProfiles() if args.profile else None
    if profiles is not None:
        profiles.install()
    options = SimulationOptions(
        players=args.players, seed=args.seed, seats=args.seats, level_minutes=args.level_minutes
    )
    with LocalRuntime.from_cdk_out(time_factor=args.time_factor) as stack:
        clock = stack.clock
        report = asyncio.run(
            simulate_local(
                options,
                stack.urls,
                stack.token,
                now=lambda: datetime.fromtimestamp(clock.now(), UTC),
                time_factor=args.time_factor,
                registration_seconds=4.0,
            )
        )
    if profiles is not None:
        profiles.dump(args.profile)
    print(
        json.dumps(
            {
                "players": args.players,
                "seats": args.seats,
                "time_factor": args.time_factor,
                "status": report["tournament"]["status"],
                "hands": report["hands"],
                "actions": report["actions"],
                "actions_refused": report["actions_refused"],
                "messages": report["messages"],
                "action_ms": report["action_ms"],
                "wall_seconds": report["wall_seconds"],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
