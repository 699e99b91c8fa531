"""Schemathesis against the local stack, from the OpenAPI document it serves.

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

The default suite runs a few hundred cases (``FUZZ_CASES``: the fuzzing and
stateful phases); the slow one every phase, the coverage phase's negative
cases for every constraint of the document included, and at least 1,000
(``FUZZ_CASES_SLOW``; docs/operations.md has the figures).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from infra.local.runtime import LocalRuntime
from tests.e2e.seeding import create, fund, later, local_stack, register, seed_running
from tests.infra import conftest as infra_conftest

REPO_ROOT = Path(__file__).resolve().parents[2]

shared_synth = infra_conftest.synthesized

CALLER, OTHER, OPERATOR = "fz-ann", "fz-bob", "fz-olga"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"
FUZZ_PHASES, FUZZ_EXAMPLES, FUZZ_CASES = "fuzzing,stateful", 10, 200
"""The default suite: Schemathesis' phases, examples per operation, and the fewest cases the run must count."""
FUZZ_PHASES_SLOW, FUZZ_EXAMPLES_SLOW, FUZZ_CASES_SLOW = "examples,coverage,fuzzing,stateful", 50, 1_000


@pytest.fixture(scope="module")
def seeded(shared_synth: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalRuntime, Path]]:
    """The local stack, seeded, and the Schemathesis configuration that points the fuzzer at the seeds."""
    with local_stack(shared_synth, tmp_path_factory) as runtime:
        fund(runtime, OPERATOR, CALLER, OTHER)
        running, view = seed_running(runtime, OPERATOR, "fz-run", (CALLER, OTHER))
        create(runtime, OPERATOR, "fz-open", later())
        assert register(runtime, "fz-open", CALLER)
        for tid in ("fz-adm-1", "fz-adm-2"):
            create(runtime, OPERATOR, tid, later())
        to_act = view.get("to_act") or {}
        config = tmp_path_factory.mktemp("schemathesis") / "schemathesis.toml"
        config.write_text(
            schemathesis_config(
                tournaments=[running, "fz-open"],
                admin_tournaments=["fz-adm-1", "fz-adm-2"],
                hands=[1, int(view["hand"])],
                seqs=[int(to_act.get("seq", 0))],
                player_token=runtime.token(CALLER),
                operator_token=runtime.token(OPERATOR, operator=True),
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


def run_schemathesis(stack: LocalRuntime, config: Path, phases: str, examples: int, report_dir: Path) -> dict[str, Any]:
    """One run of the Schemathesis CLI; its exit code, output and the counts of its JSON report."""
    url = stack.urls["http"]
    command = [
        str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config),
        "run", f"{url}/openapi.json", "--url", url, "--checks", CHECKS,
        "--phases", phases, "--max-examples", str(examples), "--seed", "9", "--workers", "1", "--no-color",
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


def fuzz(seeded: tuple[LocalRuntime, Path], tmp_path: Path, phases: str, examples: int, cases: int) -> None:
    stack, config = seeded
    # When Schemathesis runs every operation of the document against the seeded stack
    run = run_schemathesis(stack, config, phases, examples, tmp_path)
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
    fuzz(seeded, tmp_path, FUZZ_PHASES, FUZZ_EXAMPLES, FUZZ_CASES)


@pytest.mark.slow
def test_schemathesis_at_least_a_thousand_cases(seeded, tmp_path: Path) -> None:
    fuzz(seeded, tmp_path, FUZZ_PHASES_SLOW, FUZZ_EXAMPLES_SLOW, FUZZ_CASES_SLOW)
