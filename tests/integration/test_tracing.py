"""Tracing never records an answer or a body (docs/architecture.md, 'Hardening'): what X-Ray receives, off the wire.

Handlers decorated with ``observed()`` run in a child process set up as a
Lambda sandbox with active tracing (``LAMBDA_TASK_ROOT``, a sampled
``_X_AMZN_TRACE_ID``, ``AWS_XRAY_DAEMON_ADDRESS``), so the Powertools tracer is
on and the X-Ray SDK sends its subsegments over UDP to a socket of this
test, as it would to the daemon. Both get a body with hole cards and a
balance; one answers them, one fails: the trace must show both ran, with their
annotations, and hold neither the body nor the answer. (A failure's type,
message and frames are what X-Ray records as the fault's cause: the X-Ray SDK
does that, not Powertools' metadata, and our messages name no body.)
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Ah-Kd-balance-123456"

CHILD = textwrap.dedent(
    f"""
    from tourney.entrypoints.observability import correlate, observed

    class Context:
        function_name = "tourney-tracing"
        memory_limit_in_mb = 128
        invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:tourney-tracing"
        aws_request_id = "req-1"

    @observed()
    def answers(event, context):
        correlate(tournament_id="t-trace", table_id="1", hand=7)
        return {{"statusCode": 200, "body": {SECRET!r}, "cards": ["Ah", "Kd"]}}

    @observed()
    def fails(event, context):
        raise RuntimeError("the store is down")

    answers({{"body": {SECRET!r}}}, Context())
    try:
        fails({{"body": {SECRET!r}}}, Context())
    except RuntimeError:
        pass
    """
)


def run_traced_child(port: int) -> subprocess.CompletedProcess[str]:
    environment = {
        **{key: value for key, value in os.environ.items() if not key.startswith(("AWS_", "POWERTOOLS_"))},
        "PYTHONPATH": f"{ROOT / 'layers'}{os.pathsep}{ROOT}",
        "LAMBDA_TASK_ROOT": str(ROOT),
        "AWS_LAMBDA_FUNCTION_NAME": "tourney-tracing",
        "AWS_REGION": "us-east-1",
        "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
        "AWS_XRAY_DAEMON_ADDRESS": f"127.0.0.1:{port}",
        "AWS_XRAY_CONTEXT_MISSING": "LOG_ERROR",
        "POWERTOOLS_SERVICE_NAME": "tourney",
        "POWERTOOLS_METRICS_NAMESPACE": "Tourney",
    }
    return subprocess.run(
        [sys.executable, "-c", CHILD], env=environment, capture_output=True, text=True, timeout=120, check=False
    )


def received(sock: socket.socket, seconds: float = 2.0) -> list[dict[str, object]]:
    """The X-Ray documents sent to ``sock`` (each datagram: a JSON header line, then the segment)."""
    documents: list[dict[str, object]] = []
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            data = sock.recv(65_536).decode()
        except TimeoutError:
            continue
        header, _, body = data.partition("\n")
        assert json.loads(header)["format"] == "json"
        documents.append(json.loads(body))
    return documents


@pytest.fixture
def daemon() -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    yield sock
    sock.close()


def test_a_trace_holds_neither_the_answer_nor_the_error_of_a_handler(daemon: socket.socket) -> None:
    # When two traced handlers run in a Lambda sandbox: one answers hole cards, one fails quoting them
    child = run_traced_child(daemon.getsockname()[1])
    assert child.returncode == 0, child.stderr[-3000:]
    documents = received(daemon)
    # Then X-Ray got the handlers' subsegments, with the correlation ids as annotations
    text = json.dumps(documents)
    handlers = [d for d in documents if str(d.get("name", "")).startswith("## ")]
    assert len(handlers) == 2, text[:3000]
    assert any(d.get("annotations", {}).get("tournament_id") == "t-trace" for d in handlers)
    # And neither the answer nor the failure's text as metadata, nor the secret anywhere in the trace
    for document in handlers:
        metadata = json.dumps(document.get("metadata", {}))
        assert "response" not in metadata and "error" not in metadata, metadata
    assert SECRET not in text and "Kd" not in text
    # (the failure is marked as one, its cause the exception's type)
    (failed,) = [d for d in handlers if d["name"] == "## fails"]
    assert failed.get("fault") is True


def test_every_function_is_traced_through_observed() -> None:
    # One decorator sets what the tracer records (TRACE_CAPTURE), so every handler must go through it
    for app in sorted((ROOT / "functions").glob("*/app.py")):
        text = app.read_text(encoding="utf-8")
        assert "@observed(" in text and "capture_lambda_handler" not in text, app
