"""``tourney simulate``: one whole tournament with bot players (docs/interfaces.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tourney.domain.formats import TournamentFormat

if TYPE_CHECKING:
    from tourney.simulation.memory import SimulationOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, required=True, help="bot players who register")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the deals and the bots (default 1)")
    parser.add_argument(
        "--format",
        choices=[f.value for f in TournamentFormat],
        default="freezeout",
        help="the tournament's format (default freezeout)",
    )
    parser.add_argument("--buy-in", type=int, default=1_000, help="the buy-in, cents (default 1000)")
    parser.add_argument("--fee", type=int, default=100, help="entry fee, cents (0: 9 %% commission)")
    parser.add_argument("--guarantee", type=int, default=0, help="guaranteed prize pool, cents")
    parser.add_argument("--seats", type=int, default=9, help="seats per table, 2 to 10")
    parser.add_argument(
        "--via",
        choices=["memory", "local"],
        default="memory",
        help="memory: the services in this process (default); local: bots over HTTP and WebSocket to the local stack",
    )
    parser.add_argument(
        "--level-minutes", type=int, default=None, help="minutes a blind level lasts (default 10; 1 with --via local)"
    )
    parser.add_argument("--rebuy-minutes", type=int, default=None, help="rebuy format: minutes the rebuy period lasts")
    parser.add_argument("--report", type=Path, default=None, help="write the JSON report here")
    parser.add_argument("--phh", type=Path, default=None, help="write every hand as PHH, one file per table")
    parser.add_argument("--max-players", type=int, default=None, help="the field's cap (default: the field)")
    parser.add_argument("--add-on", type=int, default=None, help="rebuy format: chips of the add-on, if offered")
    parser.add_argument(
        "--terminate-at", type=float, default=None, help="terminate the tournament this many minutes after its start"
    )
    parser.add_argument(
        "--restart",
        choices=["ok", "never"],
        default="ok",
        help="with --terminate-at: ok, the restart succeeds (default); never, it fails and players are compensated",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on the terminal")
    parser.add_argument(
        "--stack-file",
        type=Path,
        default=None,
        help="--via local: the ready file of a running `tourney local up` (default: start a local stack in-process)",
    )
    parser.add_argument(
        "--time-factor",
        type=float,
        default=10.0,
        help="--via local: how many seconds of tournament time pass in a real one (in-process stack)",
    )


class ProgressBar:
    """Players left out of the field, on one terminal line (stderr), only when it is a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self._last = 0.0

    def __call__(self, remaining: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self._last < 0.1 and remaining > 1):
            return
        self._last = now
        done = total - remaining
        width = 40
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {remaining:>7} of {total} players left")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def run(args: argparse.Namespace) -> int:
    from tourney.simulation.memory import Simulation, SimulationOptions

    options = SimulationOptions(
        players=args.players,
        seed=args.seed,
        format=TournamentFormat(args.format),
        buy_in=args.buy_in,
        entry_fee=args.fee,
        guarantee=args.guarantee,
        seats=args.seats,
        level_minutes=args.level_minutes,
        rebuy_minutes=args.rebuy_minutes,
        max_players=args.max_players,
        add_on_chips=args.add_on,
        terminate_at=args.terminate_at,
        restart=args.restart == "ok",
        phh_dir=str(args.phh) if args.phh else None,
    )
    bar = ProgressBar(not args.no_progress)
    try:
        if args.via == "local":
            report = run_local(options, args.stack_file, args.time_factor, bar)
            phh_files: dict[str, str] = {}
        else:
            result = Simulation(options, progress=bar).run()
            report, phh_files = result.report, result.phh_files
    finally:
        bar.close()
    text = json.dumps(report, indent=2)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text + "\n")
    if args.phh:
        args.phh.mkdir(parents=True, exist_ok=True)
        for table_id, content in phh_files.items():
            (args.phh / f"{table_id}.phh").write_text(content)
    if not args.report:
        print(text)
    else:
        _print_summary(report)
    return 0


def run_local(options: SimulationOptions, stack_file: Path | None, time_factor: float, bar: ProgressBar) -> dict:  # type: ignore[type-arg]
    """The tournament on the local stack: the running one named by ``stack_file``, else one started here."""
    import asyncio
    from datetime import UTC, datetime

    from tourney.simulation.local_client import simulate_local

    if stack_file is not None:
        from infra.local.command import running_stack

        urls, mint, now, factor = running_stack(stack_file)
        return asyncio.run(simulate_local(options, urls, mint, now=now, time_factor=factor, progress=bar))
    from infra.local.runtime import LocalRuntime

    with LocalRuntime.from_cdk_out(time_factor=time_factor) as stack:
        clock = stack.clock
        return asyncio.run(
            simulate_local(
                options,
                stack.urls,
                stack.token,
                now=lambda: datetime.fromtimestamp(clock.now(), UTC),
                time_factor=time_factor,
                progress=bar,
            )
        )


def _print_summary(report: dict) -> None:  # type: ignore[type-arg]
    t = report["tournament"]
    print(f"{t['id']}: {t['status']}, {report['hands']} hands, {len(report['entries'])} entrants")
    for row in report["places"][:10]:
        print(f"  {row['place']:>5}  {row['player']:<10} {row['prize'] / 100:>12,.2f}")
