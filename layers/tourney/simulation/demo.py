"""``tourney demo`` (what ``make demo`` runs): a 60-player tournament played by bots, end to end.

By default (``--via local``) it starts the local stack from the synthesized
template as a process of its own (``tourney local up``, synthesizing when
needed; the bots are its clients from this process, as people are), prints the
web client's address first (``<http>/app/``; the Swagger UI beside it), and has
the bots of ``tourney simulate --via local`` play a freezeout over HTTP and
WebSocket with a progress bar: registration, the start by its schedule, every
hand, to the winner and the payouts; anyone may open the web client meanwhile
and watch the tables. Then it prints the places and prizes, the money, the
actions' round trips and the share of decisions the time-out took (late), writes
the JSON report to ``--out`` (default ``out/demo``) and stops the stack. What
the stack logs goes to ``--out``/stack.log, not to the terminal. It ends by
itself (scripts, CI).

``--join [NAME]`` (or ``TOURNEY_DEMO_JOIN=NAME make demo``; ``1`` means
``guest``) is the demo for a person: the stack runs on port 8000 at a clock a
person can play at (``--time-factor`` 1 unless given: a decision lasts its 15
seconds and the time bank its 30), NAME's account is credited, the bots'
freezeout plays to be watched (the bots think 0.2-1 s), and a Sit&Go of
``--sng-seats`` seats is announced whose other seats the bots take only once
NAME (anyone) has registered, one every two seconds; it starts when full, and
the bots play it with NAME at a person's pace (1-3 s a decision) to the end.
The stack then stays up until Ctrl-C (docs/operations.md, "The demo").

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
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from tourney.domain.histories import pokerstars
from tourney.simulation.command import ProgressBar

JOIN_ENV = "TOURNEY_DEMO_JOIN"
JOIN_PORT = 8000
SCRIPTED_TIME_FACTOR = 20.0
PERSON_TIME_FACTOR = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=60, help="bots in the freezeout (default 60)")
    parser.add_argument("--seed", type=int, default=2026, help="the seed of the deals and the bots (default 2026)")
    parser.add_argument(
        "--out", type=Path, default=Path("out/demo"), help="where report.json and the stack's log go (default out/demo)"
    )
    parser.add_argument(
        "--via",
        choices=["local", "memory"],
        default="local",
        help="local: the local stack over HTTP/WebSocket (default); memory: the domain in memory",
    )
    parser.add_argument(
        "--time-factor",
        type=float,
        default=None,
        help=f"--via local: the stack's clock speed-up (default {SCRIPTED_TIME_FACTOR:g}; "
        f"{PERSON_TIME_FACTOR:g} with --join)",
    )
    parser.add_argument(
        "--join",
        nargs="?",
        const="guest",
        default=_join_from_environment(),
        metavar="NAME",
        help=f"stay up for a person (NAME, default guest; or {JOIN_ENV}=NAME): a Sit&Go the bots fill once NAME "
        "registers in the web client, at a clock a person can play at",
    )
    parser.add_argument("--sng-seats", type=int, default=6, help="--join: the Sit&Go's seats (one of them NAME's)")
    parser.add_argument(
        "--port", type=int, default=None, help=f"--via local: the port (default any free one; {JOIN_PORT} with --join)"
    )


def _join_from_environment() -> str | None:
    value = os.environ.get(JOIN_ENV, "").strip()
    if not value or value.lower() in {"0", "no", "false"}:
        return None
    return "guest" if value.lower() in {"1", "yes", "true"} else value


def run(args: argparse.Namespace) -> int:
    if getattr(args, "via", "memory") == "local":
        return run_local(args)
    return run_memory(args)


def time_factor_of(args: argparse.Namespace) -> float:
    """The stack's clock: as given, else x30 for the scripted run and x1 for a person (``--join``)."""
    given = getattr(args, "time_factor", None)
    if given is not None:
        return float(given)
    return PERSON_TIME_FACTOR if getattr(args, "join", None) else SCRIPTED_TIME_FACTOR


def _interrupted(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def run_local(args: argparse.Namespace) -> int:
    """The tournament on the local stack, over HTTP and WebSocket (and, with ``--join``, a Sit&Go for a person).

    Ctrl-C or SIGTERM stops it, and the stack with it (also when started in the background, where SIGINT is
    ignored by default).
    """
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        return _run_local(args)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _run_local(args: argparse.Namespace) -> int:
    import asyncio

    began = time.monotonic()
    join: str | None = getattr(args, "join", None)
    factor = time_factor_of(args)
    port = args.port if getattr(args, "port", None) is not None else (JOIN_PORT if join else 0)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "stack.log"
    with log_path.open("w") as log_file:
        print("starting the local stack (synthesizing the template if needed)...", file=sys.stderr, flush=True)
        with stack_process(args.out, factor, port, log_file) as stack:
            urls = stack.urls
            app = urls.get("app") or urls["http"] + "/app/"
            print(f"web client: {app}")
            print(f"Swagger UI: {urls['swagger']}")
            print(
                f"tourney demo: a {args.players}-player freezeout ($10+$1) played over HTTP and WebSocket by bots "
                f"(seed {args.seed}, clock x{factor:g}); open the web client to watch its tables"
            )
            print(f"the API: {urls['http']} and {urls['ws']}; what the stack logs: {log_path}", flush=True)
            try:
                if join:
                    report, sng = asyncio.run(_with_a_person(args, stack, factor, join))
                else:
                    report, sng = asyncio.run(_bots_only(args, stack, factor)), None
            except KeyboardInterrupt:
                print("\nstopped (Ctrl-C); stopping the local stack...", flush=True)
                return 130
            _finish(args, report, sng, log_path)
            if join:
                print(f"\nthe stack stays up for you at {app}: Ctrl-C stops it", flush=True)
                with contextlib.suppress(KeyboardInterrupt):
                    while stack.running():
                        time.sleep(1.0)
            print("stopping the local stack...", flush=True)
    if not join:
        print(f"to play a Sit&Go against the bots yourself: {JOIN_ENV}=yourname make demo (tourney demo --join NAME)")
    print(f"the demo took {time.monotonic() - began:.0f} s")
    return 0 if report["tournament"]["status"] == "finished" and not report["hole_card_leaks"] else 1


@dataclass
class StackProcess:
    """A ``tourney local up`` of the demo's own: its URLs, the tokens it accepts, its clock."""

    urls: dict[str, str]
    token: Callable[[str, bool], str]
    now: Callable[[], datetime]
    process: subprocess.Popen[bytes]

    def running(self) -> bool:
        return self.process.poll() is None


@contextlib.contextmanager
def stack_process(out: Path, factor: float, port: int, log_file: IO[str]) -> Iterator[StackProcess]:
    """The local stack in a process of its own (``tourney local up``), its output into ``log_file``.

    The bots are clients of another process, as people are: the stack's Python (moto, the gateway, the
    functions, the pollers) keeps its interpreter to itself, and the bots run on the other core.
    """
    from infra.local.command import running_stack

    ready = out / "stack.json"
    keys = out / "keys"
    ready.unlink(missing_ok=True)
    tourney = Path(sys.executable).with_name("tourney")
    command = [str(tourney)] if tourney.exists() else [sys.executable, "-m", "tourney.cli"]
    command += ["local", "up", "--port", str(port), "--ready-file", str(ready), "--time-factor", f"{factor:g}"]
    command += ["--keys-dir", str(keys)]
    process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 900
        while not ready.exists():
            if process.poll() is not None:
                raise RuntimeError(f"the local stack exited with {process.returncode}: see {log_file.name}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the local stack did not start: see {log_file.name}")
            time.sleep(0.2)
        urls, mint, now, _ = running_stack(ready, keys_dir=keys)
        urls["app"] = json.loads(ready.read_text()).get("app") or urls["http"] + "/app/"
        yield StackProcess(urls, mint, now, process)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # it stops cleanly: WebSockets closed, ready file removed
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _finish(args: argparse.Namespace, report: dict[str, Any], sng: dict[str, Any] | None, log_path: Path) -> None:
    _print_local(report)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    if sng is not None:
        _print_sng(sng)
        (args.out / "sng-report.json").write_text(json.dumps(sng, indent=2) + "\n")
    print(f"files: {args.out}/report.json, {log_path}", flush=True)


async def _bots_only(args: argparse.Namespace, stack: StackProcess, factor: float) -> dict[str, Any]:
    from tourney.simulation.local_client import simulate_local
    from tourney.simulation.memory import SimulationOptions

    bar = ProgressBar(True)
    try:
        return await simulate_local(
            SimulationOptions(players=args.players, seed=args.seed),
            stack.urls,
            stack.token,
            now=stack.now,
            time_factor=factor,
            progress=bar,
            name=f"Demo freezeout ({args.players} bots)",
        )
    finally:
        bar.close()


async def _with_a_person(
    args: argparse.Namespace, stack: StackProcess, factor: float, person: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The bots' freezeout to watch and a Sit&Go for ``person``, side by side, each to its end."""
    import asyncio

    from tourney.domain.formats import TournamentFormat
    from tourney.simulation.local_client import credit, simulate_local
    from tourney.simulation.memory import SimulationOptions

    seats = max(2, int(args.sng_seats))
    sng_options = SimulationOptions(
        players=seats, seed=args.seed + 1, format=TournamentFormat.SNG, seats=seats, level_minutes=2
    )
    await credit(stack.urls, stack.token, person, 10 * (sng_options.buy_in + sng_options.entry_fee))
    app = stack.urls.get("app") or stack.urls["http"] + "/app/"

    def announce(tournament_id: str, body: dict[str, Any]) -> None:
        _say(
            f"\nSit&Go open: '{body['name']}' ({tournament_id}), {seats} seats, $10+$1.\n"
            f"  Sign in at {app} as '{person}' (credited $110), register for it, and the bots take the other "
            f"{seats - 1} seats; it starts when full. A decision has 15 s and then a 30 s time bank "
            f"({_real(15, factor)} and {_real(30, factor)} of real time at clock x{factor:g}).\n"
            "  Ctrl-C stops the demo.\n"
        )

    freezeout = simulate_local(
        SimulationOptions(players=args.players, seed=args.seed),
        stack.urls,
        stack.token,
        now=stack.now,
        time_factor=factor,
        name=f"Demo freezeout ({args.players} bots)",
        think=(0.2, 1.0),
        timeout_seconds=4 * 3600.0,
    )
    sit_and_go = simulate_local(
        sng_options,
        stack.urls,
        stack.token,
        now=stack.now,
        time_factor=factor,
        name=f"Demo Sit&Go ({seats} seats, join as {person})",
        seats_for_people=1,
        think=(1.0, 3.0),
        announce=announce,
        fill_gap_seconds=2.0,
        timeout_seconds=4 * 3600.0,
    )
    report, sng = await asyncio.gather(freezeout, sit_and_go)
    return report, sng


def _real(seconds: float, factor: float) -> str:
    """Tournament seconds as real ones at this clock: ``15 s``, ``1.5 s``."""
    return f"{seconds / factor:.3g} s"


def _say(text: str) -> None:
    """Print to the terminal while stdout goes to the log file (the handlers' logs)."""
    out = sys.__stdout__ or sys.stderr
    out.write(text)
    out.flush()


def _print_sng(report: dict[str, Any]) -> None:
    t = report["tournament"]
    print(f"\nSit&Go {t['id']}: {t['status']}, {report['hands']} hands")
    for row in report["places"]:
        print(f" {row['place']:>5}  {row['player']:<14} {pokerstars.money(row['prize']):>10}")


def _print_prizes_and_money(report: dict[str, Any], name_width: int) -> None:
    """The places that won a prize, and where the money went (the report's ``ledger``)."""
    print(f"\n place  {'player':<{name_width}} {'prize':>9}")
    for row in report["places"]:
        if row["prize"]:
            print(f" {row['place']:>5}  {row['player']:<{name_width}} {pokerstars.money(row['prize']):>10}")
    print(
        "\nmoney (cents): deposits {deposits}, prize pool {prize_pool_collected}, prizes paid {prizes_paid}, "
        "house revenue {house_revenue}, player balances {player_balances}".format(**report["ledger"])
    )


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
    late = report.get("late_decisions") or {}
    if late:
        refused = f"{report['actions_refused']} {report.get('refusals', {})}"
        print(
            f"decisions the time-out took (late): {late['timed_out']} of {late['decisions']} "
            f"({late['share_percent']:.2f} %); actions refused: {refused}"
        )
    _print_prizes_and_money(report, name_width=14)
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
    _print_prizes_and_money(report, name_width=10)
    ledger = report["ledger"]
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
