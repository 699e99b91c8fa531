"""Schemathesis against the local stack, from the OpenAPI document it serves (issue 9, 'Must show').

The stack is seeded first, so that the operations reach real state instead
of answering 404 to everything: two funded players, a tournament open for
registration with the caller registered, a tournament running with the caller
seated at table 1 (a hand in progress, decisions of 300 seconds so the hand
waits), and for the operators' routes tournaments of their own to create,
cancel, terminate and restart. Schemathesis' parameter dictionaries put those
ids (and the running hand's number and decision) into the generated requests
most of the time; the rest of the time it fuzzes them.

Every case runs four checks: no 5xx (``not_a_server_error``), and every
answer as the document says, its status, content type and body
(``status_code_conformance``, ``content_type_conformance``,
``response_schema_conformance``). The player routes go with a player's
token, ``/admin/*`` with an operator's; Schemathesis' coverage phase also
sends them without one, so the 401 of the gateway is checked against the
document too.

The default suite runs a few hundred cases (``FUZZ_CASES``); the slow one at
least 1,000 (``FUZZ_CASES_SLOW``; docs/operations.md has the figures).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack
from tests.infra import conftest as infra_conftest

REPO_ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 60.0

shared_synth = infra_conftest.synthesized

CALLER, OTHER, OPERATOR = "fz-ann", "fz-bob", "fz-olga"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"
FUZZ_EXAMPLES, FUZZ_CASES = 2, 300
"""The default suite: examples per operation and the fewest cases the run must count."""
FUZZ_EXAMPLES_SLOW, FUZZ_CASES_SLOW = 50, 1_000


def call(stack: LocalRuntime, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(stack.urls["http"] + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def create(stack: LocalRuntime, tid: str, start_at: datetime, **options: Any) -> None:
    body = {"name": tid, "format": "freezeout", "buy_in": 1_000, "entry_fee": 100, "min_players": 2,
            "tournament_id": tid, "start_at": start_at.strftime("%Y-%m-%dT%H:%M:%SZ"), **options}  # fmt: skip
    status, answer = call(stack, "POST", "/admin/tournaments", stack.token(OPERATOR, operator=True), body)
    assert status == 201, answer


def register(stack: LocalRuntime, tid: str, *players: str) -> bool:
    return all(call(stack, "POST", f"/tournaments/{tid}/registrations", stack.token(p), {})[0] == 201 for p in players)


def seed_running(stack: LocalRuntime) -> tuple[str, dict[str, Any]]:
    """A freezeout started by its schedule with the caller and another player at table 1; its id and view."""
    window = 6
    for attempt in range(4):
        tid = f"fz-run-{attempt}"
        start_at = (datetime.now(UTC) + timedelta(seconds=window)).replace(microsecond=0)
        create(stack, tid, start_at, decision_seconds=300, starting_stack=100_000)
        if register(stack, tid, CALLER, OTHER):
            break
        window *= 2  # a busy machine missed the registration window: give it twice the time
    else:
        raise AssertionError("two players could not register before the start, four times")
    view = wait_for_hand(stack, tid, 1, time.time() + window + PATIENCE)
    # The first hand is folded, so that its history exists; the second waits for its first decision
    to_act = view["to_act"]
    decision = {"hand": view["hand"], "seq": to_act["seq"], "action": "fold"}
    actions = f"/tournaments/{tid}/tables/1/actions"
    status, answer = call(stack, "POST", actions, stack.token(to_act["player"]), decision)
    assert status == 200, answer
    return tid, wait_for_hand(stack, tid, 2, time.time() + PATIENCE)


def wait_for_hand(stack: LocalRuntime, tid: str, hand: int, deadline: float) -> dict[str, Any]:
    while True:
        status, view = call(stack, "GET", f"/tournaments/{tid}/tables/1", stack.token(CALLER))
        if status == 200 and view.get("hand_in_progress") and view["hand"] >= hand and view.get("to_act"):
            return dict(view)
        assert time.time() < deadline, f"hand {hand} was not dealt at {tid} table 1: {status} {view}"
        time.sleep(0.3)


@pytest.fixture(scope="module")
def seeded(shared_synth: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalRuntime, Path]]:
    """The local stack, seeded, and the Schemathesis configuration that points the fuzzer at the seeds."""
    runtime = LocalRuntime(load_stack(shared_synth.outdir), REPO_ROOT, port=0, keys_dir=tmp_path_factory.mktemp("keys"))
    with runtime:
        operator = runtime.token(OPERATOR, operator=True)
        for player in (CALLER, OTHER):
            assert call(runtime, "POST", f"/admin/accounts/{player}/deposits", operator, {"amount": 10**8})[0] == 201
        running, view = seed_running(runtime)
        later = datetime.now(UTC) + timedelta(days=1)
        create(runtime, "fz-open", later)
        assert register(runtime, "fz-open", CALLER)
        for tid in ("fz-adm-1", "fz-adm-2"):
            create(runtime, tid, later)
        to_act = view.get("to_act") or {}
        config = tmp_path_factory.mktemp("schemathesis") / "schemathesis.toml"
        config.write_text(
            schemathesis_config(
                tournaments=[running, "fz-open"],
                admin_tournaments=["fz-adm-1", "fz-adm-2"],
                hands=[1, int(view["hand"])],
                seqs=[int(to_act.get("seq", 0))],
                player_token=runtime.token(CALLER),
                operator_token=operator,
            )
        )
        yield runtime, config


def schemathesis_config(
    *,
    tournaments: list[str],
    admin_tournaments: list[str],
    hands: list[int],
    seqs: list[int],
    player_token: str,
    operator_token: str,
) -> str:
    """schemathesis.toml: the seeded ids in dictionaries (used 80 % of the time), one token per kind of route."""

    def values(items: list[Any]) -> str:
        return json.dumps(items)

    return f"""
headers = {{ Authorization = "Bearer {player_token}" }}

[dictionaries.tournaments]
values = {values(tournaments)}
[dictionaries.admin_tournaments]
values = {values(admin_tournaments)}
[dictionaries.tables]
values = ["1"]
[dictionaries.hands]
values = {values(hands)}
[dictionaries.seqs]
values = {values(seqs)}
[dictionaries.players]
values = {values([CALLER, OTHER])}

[parameters]
"path.id" = {{ dictionary = "tournaments", probability = 0.8 }}
"path.table" = {{ dictionary = "tables", probability = 0.8 }}
"path.hand" = {{ dictionary = "hands", probability = 0.5 }}
"body.hand" = {{ dictionary = "hands", probability = 0.8 }}
"body.seq" = {{ dictionary = "seqs", probability = 0.8 }}

[[operations]]
include-path-regex = "^/admin/"
headers = {{ Authorization = "Bearer {operator_token}" }}
[operations.parameters]
"path.id" = {{ dictionary = "admin_tournaments", probability = 0.8 }}
"path.player" = {{ dictionary = "players", probability = 0.8 }}
"""


def run_schemathesis(stack: LocalRuntime, config: Path, examples: int, report_dir: Path) -> dict[str, Any]:
    """One run of the Schemathesis CLI; its exit code, output and the counts of its JSON report."""
    url = stack.urls["http"]
    command = [
        str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config),
        "run", f"{url}/openapi.json", "--url", url, "--checks", CHECKS,
        "--max-examples", str(examples), "--seed", "9", "--workers", "1", "--no-color",
        "--report", "json", "--report-dir", str(report_dir), "--request-timeout", "30",
        "--suppress-health-check", "all",
    ]  # fmt: skip
    began = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=report_dir)
    return {
        "code": result.returncode,
        "output": result.stdout[-20_000:] + result.stderr[-5_000:],
        "seconds": time.monotonic() - began,
        "report": load_report(report_dir),
    }


def load_report(report_dir: Path) -> Any:
    reports = sorted(report_dir.rglob("*.json"))
    return json.loads(reports[-1].read_text()) if reports else None


def fuzz(seeded: tuple[LocalRuntime, Path], tmp_path: Path, examples: int, cases: int) -> None:
    stack, config = seeded
    # When Schemathesis runs every operation of the document against the seeded stack
    run = run_schemathesis(stack, config, examples, tmp_path)
    print(run["output"][-3_000:])
    # Then no case failed a check (no server error, every answer as documented) and enough cases ran
    assert run["code"] == 0, run["output"]
    assert count_cases(run) >= cases, run["output"][-3_000:]


def count_cases(run: dict[str, Any]) -> int:
    """Cases the run generated (and checked), from its JSON report: every failure and error is none."""
    report = run["report"]
    assert report is not None, run["output"]
    assert report["failures"] == [] and report["errors"] == [], run["output"]
    assert report["test_cases"]["with_failures"] == 0 == report["test_cases"]["errored"]
    assert report["operations"]["tested"] == report["operations"]["total"], report["operations"]
    return int(report["test_cases"]["generated"])


def test_schemathesis_finds_no_server_error_and_no_answer_off_the_document(seeded, tmp_path: Path) -> None:
    fuzz(seeded, tmp_path, FUZZ_EXAMPLES, FUZZ_CASES)


@pytest.mark.slow
def test_schemathesis_at_least_a_thousand_cases(seeded, tmp_path: Path) -> None:
    fuzz(seeded, tmp_path, FUZZ_EXAMPLES_SLOW, FUZZ_CASES_SLOW)
