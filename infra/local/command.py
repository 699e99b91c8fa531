"""``tourney local``: the local stack (docs/interfaces.md, 'tourney local').

- ``tourney local up [--port P] [--ready-file F] [--time-factor X]``: synthesizes
  ``cdk.out`` when it is missing or older than the CDK sources (``app.py``,
  ``cdk.json``, ``infra/``), starts the stack on 127.0.0.1, writes
  ``{"http": URL, "ws": URL, "swagger": URL}`` to F once it serves (and its
  clock, ``time_factor`` and ``time_origin``, to ``cdk.out/local/clock.json``), logs one
  line per request, and stops cleanly on SIGINT or SIGTERM (removing F).
- ``tourney local token --player NAME [--operator]``: prints a JWT the local
  stack accepts (signed with the key in ``cdk.out/local/``, the issuer and
  audience of the template's JWT authorizer).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path

import infra
from infra.local.clock import VirtualClock
from infra.local.jwt_keys import SigningKeys, auth_config
from infra.local.lambdas import FAILURES_LOGGER
from infra.local.synth import needs_synth, synthesize
from infra.local.template import LocalEndpoints, Resolver, TemplateError, load_stack

REPO_ROOT = Path(infra.__file__).resolve().parent.parent
CLOCK_FILE = "clock.json"
DEFAULT_PORT = 8000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="local_command", required=True, help="what to do with the local stack")

    up = commands.add_parser("up", help="start the local stack on 127.0.0.1 until SIGINT/SIGTERM")
    up.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"HTTP and WebSocket port (default {DEFAULT_PORT}, 0: any free one)",
    )
    up.add_argument("--ready-file", type=Path, help='write {"http", "ws", "swagger"} URLs here once serving')
    up.add_argument(
        "--time-factor",
        type=float,
        default=1.0,
        help="time compression for schedules, SQS delays and workflow waits (60: a minute lasts a second)",
    )
    _common(up)
    up.add_argument("--no-synth", action="store_true", help="never synthesize; use cdk.out as it is")

    token = commands.add_parser("token", help="print a JWT the local stack accepts")
    token.add_argument("--player", required=True, help="the player (the token's sub and username)")
    token.add_argument("--operator", action="store_true", help="a member of the operators group")
    token.add_argument("--ttl-seconds", type=int, default=12 * 3600, help="lifetime (default 12 hours)")
    _common(token)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--cdk-out", type=Path, default=REPO_ROOT / "cdk.out", help="the cloud assembly (default cdk.out)"
    )
    parser.add_argument("--stack", help="the stack to run (default: the only one)")
    parser.add_argument(
        "--keys-dir", type=Path, default=REPO_ROOT / "cdk.out" / "local", help="where the signing key is kept"
    )


def run(args: argparse.Namespace) -> int:
    if args.local_command == "token":
        return _token(args)
    return _up(args)


# ---------------------------------------------------------------------- token


def _token(args: argparse.Namespace) -> int:
    try:
        template = load_stack(args.cdk_out, args.stack)
    except TemplateError as error:
        print(f"tourney local token: {error}; run `tourney local up` (it synthesizes) first", file=sys.stderr)
        return 2
    config = auth_config(template, Resolver(template, LocalEndpoints()))
    keys = SigningKeys(args.keys_dir)
    print(keys.mint(args.player, config, operator=args.operator, ttl_seconds=args.ttl_seconds))
    return 0


# ---------------------------------------------------------------------- up


def _configure_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", datefmt="%H:%M:%S"))
    local = logging.getLogger("infra.local")
    local.addHandler(handler)
    local.setLevel(logging.INFO)
    local.propagate = False
    # A failed invocation's error record is a JSON line of its own (infra.local.lambdas.log_failure)
    records = logging.StreamHandler(sys.stderr)
    records.setFormatter(logging.Formatter("%(message)s"))
    failures = logging.getLogger(FAILURES_LOGGER)
    failures.addHandler(records)
    failures.propagate = False
    for noisy in ("botocore", "boto3", "urllib3", "werkzeug", "aiohttp.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def running_stack(
    ready_file: Path, cdk_out: Path | None = None, keys_dir: Path | None = None
) -> tuple[dict[str, str], Callable[[str, bool], str], Callable[[], datetime], float]:
    """What a client needs of a running ``tourney local up``: its URLs, tokens it accepts, its clock, its factor."""
    ready = json.loads(Path(ready_file).read_text())
    out = Path(cdk_out or REPO_ROOT / "cdk.out")
    template = load_stack(out, None)
    config = auth_config(template, Resolver(template, LocalEndpoints()))
    folder = Path(keys_dir or REPO_ROOT / "cdk.out" / "local")
    keys = SigningKeys(folder)
    clock_file = folder / CLOCK_FILE
    times = json.loads(clock_file.read_text()) if clock_file.exists() else {}
    clock = VirtualClock(float(times.get("time_factor", 1.0)), float(times.get("time_origin", time.time())))

    def mint(player: str, operator: bool) -> str:
        return keys.mint(player, config, operator=operator)

    def now() -> datetime:
        return datetime.fromtimestamp(clock.now(), UTC)

    urls = {key: ready[key] for key in ("http", "ws", "swagger")}
    return urls, mint, now, clock.factor


def _write_ready(path: Path, urls: Mapping[str, object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps(urls))
    os.replace(temporary, path)


def _up(args: argparse.Namespace) -> int:
    from infra.local.runtime import LocalRuntime

    _configure_logging()
    log = logging.getLogger("infra.local")
    ready_file: Path | None = args.ready_file
    if ready_file is not None and ready_file.exists():
        ready_file.unlink()
    cdk_out = Path(args.cdk_out).resolve()
    try:
        if needs_synth(cdk_out, REPO_ROOT):
            if args.no_synth:
                log.warning("%s is missing or older than the CDK sources (synthesize: python app.py)", cdk_out)
            else:
                synthesize(cdk_out, REPO_ROOT)
        template = load_stack(cdk_out, args.stack)
    except (TemplateError, subprocess.CalledProcessError) as error:
        print(f"tourney local up: {error}", file=sys.stderr)
        return 2

    stopping = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        log.info("%s: stopping", signal.Signals(signum).name)
        stopping.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    runtime = LocalRuntime(template, REPO_ROOT, port=args.port, time_factor=args.time_factor, keys_dir=args.keys_dir)
    try:
        runtime.start()
        urls = runtime.urls
        clock = {"time_factor": runtime.clock.factor, "time_origin": runtime.clock.origin}
        _write_ready(Path(args.keys_dir) / CLOCK_FILE, clock)  # for clients of this stack: its virtual time
        if ready_file is not None:
            _write_ready(ready_file, urls)
        log.info("serving: web client %s  HTTP %s  WebSocket %s", urls["app"], urls["http"], urls["ws"])
        log.info("Swagger UI %s", urls["swagger"])
        log.info("a token: tourney local token --player NAME [--operator]; stop with Ctrl-C")
        while not stopping.wait(0.5):
            pass
    except OSError as error:
        print(f"tourney local up: {error}", file=sys.stderr)
        return 1
    finally:
        runtime.stop()
        if ready_file is not None and ready_file.exists():
            ready_file.unlink()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        log.info("stopped")
    return 0
