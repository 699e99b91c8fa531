"""``tourney demo`` (what ``make demo`` runs): a 60-player tournament played by bots, end to end.

Until the local stack exists (issue 5) the demo runs the domain in memory:
registration with fees, the seat and button draws, every hand, balancing and
breaking, the final table and the prizes, then prints the result, the money,
and the last hand as a tracking tool would import it. It writes the JSON
report, one PHH file per table and the last hand's PokerStars text to
``--out`` (default ``out/demo``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tourney.domain.histories import pokerstars
from tourney.simulation.command import ProgressBar


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("out/demo"))


def run(args: argparse.Namespace) -> int:
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
