"""``tourney demo`` (what ``make demo`` runs): a 60-player tournament played by bots, end to end.

By default (``--via local``) it starts the local stack from the synthesized
template (``LocalRuntime.from_cdk_out``, synthesizing when needed), prints
where the Swagger UI is while it runs, and has the bots of ``tourney simulate
--via local`` play a freezeout over HTTP and WebSocket with a progress bar:
registration, the start by its schedule, every hand, to the winner and the
payouts. Then it prints the places and prizes and the money, writes the JSON
report to ``--out`` (default ``out/demo``) and stops the stack. What the
handlers log goes to ``--out``/stack.log, not to the terminal.

``--via memory`` runs the domain in memory instead: registration with fees,
the seat and button draws, every hand, balancing and breaking, the final
table and the prizes, then the result, the money and the last hand as a
tracking tool would import it, with one PHH file per table and the last
hand's PokerStars text beside the report.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from tourney.domain.histories import pokerstars
from tourney.simulation.command import ProgressBar


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("out/demo"))
    parser.add_argument(
        "--via",
        choices=["local", "memory"],
        default="local",
        help="local: the local stack over HTTP/WebSocket (default); memory: the domain in memory",
    )
    parser.add_argument("--time-factor", type=float, default=30.0, help="--via local: the stack's clock speed-up")


def run(args: argparse.Namespace) -> int:
    if getattr(args, "via", "memory") == "local":
        return run_local(args)
    return run_memory(args)


def run_local(args: argparse.Namespace) -> int:
    """The tournament on the local stack, over HTTP and WebSocket."""
    import asyncio
    from datetime import UTC, datetime

    from infra.local.runtime import LocalRuntime
    from tourney.simulation.local_client import simulate_local
    from tourney.simulation.memory import SimulationOptions

    began = time.monotonic()
    print(
        f"tourney demo: a {args.players}-player freezeout ($10+$1) on the local stack, played over HTTP and "
        f"WebSocket by bots (seed {args.seed}, clock x{args.time_factor:g})"
    )
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "stack.log"
    options = SimulationOptions(players=args.players, seed=args.seed)
    with log_path.open("w") as log_file:
        handler = logging.StreamHandler(log_file)
        root = logging.getLogger()
        root.addHandler(handler)
        saved_level = root.level
        root.setLevel(logging.INFO)
        try:
            print("starting the local stack (synthesizing the template if needed)...", flush=True)
            stack = LocalRuntime.from_cdk_out(time_factor=args.time_factor)
            with stack:
                urls = stack.urls
                print(f"the local stack serves {urls['http']} and {urls['ws']}")
                print(f"Swagger UI while it runs: {urls['swagger']}")
                print(f"what the functions log: {log_path}", flush=True)
                clock = stack.clock
                bar = ProgressBar(True)
                try:
                    # the handlers print their logs (Powertools) to stdout: into the log file while they run
                    with contextlib.redirect_stdout(log_file):
                        report = asyncio.run(
                            simulate_local(
                                options,
                                urls,
                                stack.token,
                                now=lambda: datetime.fromtimestamp(clock.now(), UTC),
                                time_factor=args.time_factor,
                                progress=bar,
                            )
                        )
                finally:
                    bar.close()
                print("stopping the local stack...", flush=True)
        finally:
            root.removeHandler(handler)
            root.setLevel(saved_level)
    _print_local(report)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(f"files: {args.out}/report.json, {log_path}")
    print(f"the demo took {time.monotonic() - began:.0f} s")
    return 0 if report["tournament"]["status"] == "finished" and not report["hole_card_leaks"] else 1


def _print_local(report: dict[str, Any]) -> None:
    t = report["tournament"]
    actions = report.get("action_ms") or {}
    print(
        f"\n{t['status']}: {report['hands']} hands from {t['started_at']} to {t['ended_at']} (tournament clock), "
        f"{report['tables_at_start']} tables at the start, final table formed: {report['final_table_formed']}"
    )
    print(
        f"{report['actions']} actions over HTTP (round trip p50 {actions.get('p50', '-')} ms, "
        f"p99 {actions.get('p99', '-')} ms), {report['messages']} messages pushed over WebSocket, "
        f"hole cards seen by another player: {report['hole_card_leaks']}"
    )
    print("\n place  player             prize")
    for row in report["places"]:
        if row["prize"]:
            print(f" {row['place']:>5}  {row['player']:<14} {pokerstars.money(row['prize']):>10}")
    ledger = report["ledger"]
    print(
        "\nmoney (cents): deposits {deposits}, prize pool {prize_pool_collected}, prizes paid {prizes_paid}, "
        "house revenue {house_revenue}, player balances {player_balances}".format(**ledger)
    )
    print(f"chips in play, every time the standings were read: {report['chip_totals_seen']}")
    sys.stdout.flush()


def run_memory(args: argparse.Namespace) -> int:
    from tourney.simulation.memory import Simulation, SimulationOptions

    print(f"tourney demo: a {args.players}-player freezeout ($10+$1), played in memory by bots (seed {args.seed})")
    options = SimulationOptions(players=args.players, seed=args.seed, phh_dir=str(args.out / "phh"))
    bar = ProgressBar(True)
    try:
        simulation = Simulation(options, progress=bar)
        result = simulation.run()
    finally:
        bar.close()
    report = result.report
    t = report["tournament"]
    print(
        f"\n{t['status']}: {report['hands']} hands from {t['started_at']} to {t['ended_at']} (tournament clock), "
        f"{report['tables_at_start']} tables at the start, {report['moves']} players moved, "
        f"final table formed: {report['final_table_formed']}"
    )
    print("\n place  player         prize")
    for row in report["places"]:
        if row["prize"]:
            print(f" {row['place']:>5}  {row['player']:<10} {pokerstars.money(row['prize']):>10}")
    ledger = report["ledger"]
    print(
        "\nmoney (cents): deposits {deposits}, prize pool {prize_pool_collected}, prizes paid {prizes_paid}, "
        "house revenue {house_revenue}, player balances {player_balances}".format(**ledger)
    )
    held = ledger["player_balances"] + ledger["prize_pool_held"] + ledger["house_revenue"] + ledger["refunds_owed"]
    print(f"conserved: balances + pools + house + refunds owed = {held} = deposits + overlay")

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    (args.out / "phh").mkdir(exist_ok=True)
    for table_id, content in result.phh_files.items():
        (args.out / "phh" / f"{table_id}.phh").write_text(content)
    last = simulation.last_hand
    if last is not None:
        header = pokerstars.HandHeader(
            hand_number=report["hands"],
            tournament_id=t["id"],
            buy_in=t["buy_in"],
            entry_fee=t["entry_fee"],
            level=last.level,
            table=f"{t['id']} {last.table_id}",
            started_at=last.dealt_at,
            seats_per_table=t["seats_per_table"],
        )
        text = pokerstars.dumps(last.hand, last.players, header)
        (args.out / "last-hand.txt").write_text(text)
        print("\nthe last hand, as PokerStars writes it (observer's view):\n")
        print(text)
    print(f"files: {args.out}/report.json, {args.out}/phh/<table>.phh, {args.out}/last-hand.txt")
    return 0
