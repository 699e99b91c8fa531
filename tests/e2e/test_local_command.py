"""``tourney local up`` and ``tourney local token`` as a user runs them (docs/interfaces.md, 'tourney local')."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from infra.local import command, synth

FIXTURE = Path(__file__).parent / "fixtures" / "local_stack"


def tourney(*args: str) -> list[str]:
    return [sys.executable, "-m", "tourney.cli", *args]


def get(url: str, token: str | None = None) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_up_writes_its_ready_file_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    # Given `tourney local up` on the fixture stack, any free port
    ready = tmp_path / "ready.json"
    keys = tmp_path / "keys"
    common = ["--cdk-out", str(FIXTURE), "--keys-dir", str(keys)]
    process = subprocess.Popen(
        tourney("local", "up", "--port", "0", "--ready-file", str(ready), "--time-factor", "60", "--no-synth", *common),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "no ready file within 60 s"
            time.sleep(0.1)
        # When it serves
        urls = json.loads(ready.read_text())
        assert set(urls) == {"http", "ws", "swagger", "app"}
        assert urls["app"] == urls["http"] + "/app/"
        assert urls["http"].startswith("http://127.0.0.1:")
        assert urls["ws"] == urls["http"].replace("http://", "ws://") + "/live"
        # Then a route answers, and a token from `tourney local token` is accepted
        assert get(urls["http"] + "/public") == 200
        assert get(urls["http"] + "/hello/ann") == 401
        token = subprocess.run(
            tourney("local", "token", "--player", "ann", *common), check=True, capture_output=True, text=True
        ).stdout.strip()
        assert get(urls["http"] + "/hello/ann", token) == 200
    finally:
        # And SIGTERM stops it cleanly: exit 0, the ready file removed, the port closed
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    log = process.stderr.read() if process.stderr else ""
    assert code == 0, log
    assert not ready.exists()
    assert "GET /public 200" in log  # one line per request
    with pytest.raises(OSError):
        urllib.request.urlopen(urls["http"] + "/public", timeout=2)


def test_token_without_a_template_says_what_to_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["token", "--player", "ann", "--cdk-out", str(tmp_path), "--keys-dir", str(tmp_path)])
    assert command.run(args) == 2
    assert "tourney local up" in capsys.readouterr().err


def test_cdk_out_older_than_the_sources_needs_a_synth(tmp_path: Path) -> None:
    import os

    (tmp_path / "infra" / "local").mkdir(parents=True)
    stack = tmp_path / "infra" / "stack.py"
    stack.write_text("")
    os.utime(stack, (500, 500))
    cdk_out = tmp_path / "cdk.out"
    assert synth.needs_synth(cdk_out, tmp_path)  # missing
    cdk_out.mkdir()
    manifest = cdk_out / "manifest.json"
    manifest.write_text("{}")
    os.utime(manifest, (1000, 1000))
    assert not synth.needs_synth(cdk_out, tmp_path)
    runtime = tmp_path / "infra" / "local" / "runtime.py"
    runtime.write_text("")  # the local runtime itself does not count
    assert not synth.needs_synth(cdk_out, tmp_path)
    (tmp_path / "app.py").write_text("")  # newer than the synth
    assert synth.needs_synth(cdk_out, tmp_path)


def test_cdk_out_older_than_the_tables_declaration_needs_a_synth(tmp_path: Path) -> None:
    import os

    # Given a synthesized cdk.out newer than infra/
    (tmp_path / "infra").mkdir()
    os.utime(tmp_path / "infra", (500, 500))
    (tmp_path / "cdk.out").mkdir()
    manifest = tmp_path / "cdk.out" / "manifest.json"
    manifest.write_text("{}")
    os.utime(manifest, (1000, 1000))
    assert not synth.needs_synth(tmp_path / "cdk.out", tmp_path)
    # When the tables' declaration, which infra/tables.py builds the tables and their indexes from, changes
    schema = tmp_path / "layers" / "tourney" / "adapters" / "dynamo" / "schema.py"
    schema.parent.mkdir(parents=True)
    schema.write_text("")
    # Then the template is stale: the local stack would make the tables as they were
    assert synth.needs_synth(tmp_path / "cdk.out", tmp_path)
