"""Scale of the in-memory simulator: one whole freezeout to its winner (docs/architecture.md, 'Scale to design for').

Run in a fresh process so the peak resident memory is the simulation's own:

    python -m bench.simulation --players 10000 --seed 1

prints one JSON object: players, tables at start, hands, wall seconds, hands
per second, peak resident memory (MiB), and the invariant checks made.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

from tourney.simulation.memory import Simulation, SimulationOptions


def measure_simulation(players: int = 10_000, seed: int = 1) -> dict[str, Any]:
    started = time.perf_counter()
    report = Simulation(SimulationOptions(players=players, seed=seed)).run().report
    wall = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "players": players,
        "seed": seed,
        "status": report["tournament"]["status"],
        "tables_at_start": report["tables_at_start"],
        "hands": report["hands"],
        "moves": report["moves"],
        "wall_s": round(wall, 1),
        "hands_per_s": round(report["hands"] / wall),
        "peak_rss_mib": round(peak_kib / 1024, 1),
        "invariant_checks": report["invariant_checks"],
        "tournament_hours": _hours(report),
    }


def _hours(report: dict[str, Any]) -> float:
    from datetime import datetime

    t = report["tournament"]
    start, end = (datetime.fromisoformat(t[k].replace("Z", "+00:00")) for k in ("started_at", "ended_at"))
    return round((end - start).total_seconds() / 3600, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(measure_simulation(args.players, args.seed)))


if __name__ == "__main__":
    main()
