"""``tourney bench``: the benchmarks, one subcommand each (results are recorded in docs/performance.md).

    tourney bench engine [--json] [--hands N] [--repetitions R] [--evals E] [--seed S] [--check]
    tourney bench balancing
    tourney bench simulation [--players N] [--seed S]
    tourney bench cold-start [--runs R]
    tourney bench capacity --players N [--minutes M] [--seed S] [--sizing standard|large] [--json]

``engine`` (``tourney bench``, docs/interfaces.md): our hand engine against pokerkit
and our evaluator against treys, side by side in one run on the same seeded
inputs (``bench.engine``, ``bench.evaluator``). ``--json`` prints one JSON
object; otherwise a table. ``--check`` exits 1 when a ratio is under its
target (hands 20x, evaluations 10x).

``balancing``: the cost of one after-hand balancing decision at 1,000 and
250,000 players (``bench.balancing``). ``simulation``: one whole in-memory
freezeout to its winner (``bench.simulation``); run it in a fresh process,
as its peak memory is part of the answer.
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

from tourney.cli import whole_number

_positive = whole_number(1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    benchmarks = parser.add_subparsers(dest="benchmark", required=True, help="the benchmark to run")
    engine = benchmarks.add_parser(
        "engine",
        help="hands/s against pokerkit and evaluations/s against treys",
        description="Our engine against pokerkit (hands/s) and our evaluator against treys (evaluations/s), "
        "9-handed, same seeded inputs, action mix fold .25 / check-call .55 / min-raise .15 / all-in .05; "
        "figures are medians over the repetitions.",
    )
    engine.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    engine.add_argument("--hands", type=_positive, default=200, help="hands each engine plays per repetition (200)")
    engine.add_argument("--repetitions", type=_positive, default=5, help="timed passes of each; the median is kept (5)")
    engine.add_argument("--evals", type=_positive, default=100_000, help="7-card evaluations per pass (100,000)")
    engine.add_argument("--seed", type=int, default=1, help="seeds the decks, the decisions and the deals (1)")
    engine.add_argument("--check", action="store_true", help="exit 1 when a ratio is under its target")
    engine.set_defaults(_run=_run_engine)
    balancing = benchmarks.add_parser("balancing", help="one after-hand balancing decision at 1,000 and 250,000")
    balancing.set_defaults(_run=_run_balancing)
    simulation = benchmarks.add_parser("simulation", help="one whole in-memory freezeout: hands/s, peak memory")
    simulation.add_argument("--players", type=_positive, default=10_000, help="entrants (10,000)")
    simulation.add_argument("--seed", type=int, default=1, help="seeds the simulation (1)")
    simulation.set_defaults(_run=_run_simulation)
    capacity = benchmarks.add_parser(
        "capacity",
        help="one freezeout in the simulated cloud with AWS modeled: latency, limits, cost",
        description="One freezeout of N players from the opening of registration through the start and M minutes "
        "of play, then a termination and its compensation, through the services in the simulated cloud with AWS "
        "modeled (simulation/aws): latencies, partition and concurrency limits, FIFO batches, cost.",
    )
    capacity.add_argument("--players", type=_positive, required=True, help="entrants")
    capacity.add_argument("--minutes", type=float, default=30.0, help="minutes of play before the termination (30)")
    capacity.add_argument("--seed", type=int, default=1, help="seeds the simulation and the model (1)")
    capacity.add_argument(
        "--sizing",
        choices=("standard", "large"),
        default="standard",
        help="the deployment's throttles and reservations (infra/sizing.py; standard)",
    )
    capacity.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    capacity.set_defaults(_run=_run_capacity)
    cold = benchmarks.add_parser("cold-start", help="import time of each Lambda handler module (target < 300 ms)")
    cold.add_argument("--runs", type=_positive, default=7, help="fresh interpreters per function; the median (7)")
    cold.set_defaults(_run=_run_cold_start)


def run(args: argparse.Namespace) -> int:
    result: int = args._run(args)
    return result


def _run_capacity(args: argparse.Namespace) -> int:
    from bench.capacity import ProgressLine, measure_capacity
    from infra.sizing import sizing_named

    progress = ProgressLine()
    try:
        report = measure_capacity(args.players, args.minutes, args.seed, progress, sizing_named(args.sizing))
    finally:
        progress.close()
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key}: {json.dumps(value)}")
    return 0


def _run_engine(args: argparse.Namespace) -> int:
    from bench.engine import measure_engine

    figures = measure_engine(seed=args.seed, hands=args.hands, repeats=args.repetitions, evals=args.evals)
    print(json.dumps(figures) if args.json else format_table(figures))
    if args.check and not meets_targets(figures):
        return 1
    return 0


def meets_targets(figures: dict[str, Any]) -> bool:
    """Both ratios at or above their targets, and both engines ended every hand alike."""
    targets = figures["targets"]
    return bool(
        figures["hands_ratio"] >= targets["hands_ratio"]
        and figures["evals_ratio"] >= targets["evals_ratio"]
        and figures["outcome_mismatches"] == 0
    )


def format_table(figures: dict[str, Any]) -> str:
    """The engine figures as a readable table.

    >>> print(format_table({"ours_hands_per_s": 5000.0, "pokerkit_hands_per_s": 150.0, "hands_ratio": 33.33,
    ...     "ours_secrets_hands_per_s": 4000.0, "ours_evals_per_s": 3e6, "treys_evals_per_s": 1.5e5,
    ...     "evals_ratio": 20.0, "outcome_mismatches": 0, "targets": {"hands_ratio": 20.0, "evals_ratio": 10.0},
    ...     "players": 9, "hands": 300, "evals": 200000, "repetitions": 5, "seed": 1, "cpus": 2, "seconds": 20.0}))
    tourney bench engine: 9-handed NLHE, 300 hands and 200,000 evaluations per pass, median of 5 passes, seed 1
    <BLANKLINE>
                                      ours    reference             ratio  target
    hands/s (seeded deck)            5,000    pokerkit 150         33.33x  >= 20x  met
    hands/s (secrets shuffle)        4,000
    7-card evaluations/s         3,000,000    treys 150,000        20.00x  >= 10x  met
    <BLANKLINE>
    same finishing stacks in both engines: 300 of 300 hands; 2 CPUs; 20.0 s
    """
    targets = figures["targets"]

    def row(label: str, ours: float, reference: str = "", ratio: float | None = None, target: float = 0.0) -> str:
        line = f"{label:<26}{ours:>12,.0f}    {reference:<20}"
        if ratio is not None:
            line += f"{ratio:>6.2f}x  >= {target:g}x  " + ("met" if ratio >= target else "NOT MET")
        return line.rstrip()

    hands = figures["hands"]
    same = hands - figures["outcome_mismatches"]
    rows = [
        f"tourney bench engine: {figures['players']}-handed NLHE, {hands:,} hands and {figures['evals']:,} "
        f"evaluations per pass, median of {figures['repetitions']} passes, seed {figures['seed']}",
        "",
        f"{'':<26}{'ours':>12}    {'reference':<20}{'ratio':>7}  target",
        row(
            "hands/s (seeded deck)",
            figures["ours_hands_per_s"],
            f"pokerkit {figures['pokerkit_hands_per_s']:,.0f}",
            figures["hands_ratio"],
            targets["hands_ratio"],
        ),
        row("hands/s (secrets shuffle)", figures["ours_secrets_hands_per_s"]),
        row(
            "7-card evaluations/s",
            figures["ours_evals_per_s"],
            f"treys {figures['treys_evals_per_s']:,.0f}",
            figures["evals_ratio"],
            targets["evals_ratio"],
        ),
        "",
        f"same finishing stacks in both engines: {same:,} of {hands:,} hands; "
        f"{figures['cpus']} CPUs; {figures['seconds']} s",
    ]
    return "\n".join(rows)


def _run_balancing(args: argparse.Namespace) -> int:
    module = importlib.import_module("bench.balancing")
    module.main()
    return 0


def _run_cold_start(args: argparse.Namespace) -> int:
    module = importlib.import_module("bench.cold_start")
    print(json.dumps(module.measure(args.runs)))
    return 0


def _run_simulation(args: argparse.Namespace) -> int:
    module = importlib.import_module("bench.simulation")
    print(json.dumps(module.measure_simulation(args.players, args.seed)))
    return 0
