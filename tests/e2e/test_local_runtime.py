"""The local runtime on a small hand-written template (``fixtures/local_stack``) with tiny handlers.

One runtime for the module, time compressed 60 times (a minute lasts a second).
The fixture's worker records every event it receives in the events table, which
the tests read through the moto server.

No assertion needs the machine to be quick: the tests wait with generous
deadlines (``PATIENCE``) and check order and outcome. A time-compressed wait is
checked from below only (it cannot end before its compressed delay), and from
above by the delay it would last uncompressed, which a busy machine does not
approach.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import boto3
import jwt
import pytest
from botocore.config import Config

from infra.local.runtime import LocalRuntime
from infra.local.template import load_stack

FIXTURE = Path(__file__).parent / "fixtures" / "local_stack"
REPO_ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 45.0
"""Seconds any wait may take on a busy machine: under the 60 that a one-minute delay lasts uncompressed."""


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRuntime]:
    runtime = LocalRuntime(
        load_stack(FIXTURE), REPO_ROOT, port=0, time_factor=60, keys_dir=tmp_path_factory.mktemp("keys")
    )
    with runtime:
        yield runtime


def call(stack: LocalRuntime, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(stack.urls["http"] + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def events(stack: LocalRuntime, source: str) -> list[dict[str, Any]]:
    answer = stack.client("dynamodb").query(
        TableName=stack.table_names["EventsTable"],
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": source}},
    )
    return [json.loads(item["detail"]["S"]) if "detail" in item else item["sk"]["S"] for item in answer["Items"]]


def wait_for(check: Callable[[], Any], timeout: float = PATIENCE) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s")
        time.sleep(0.1)


# ---------------------------------------------------------------------- HTTP API


def test_http_route_with_a_valid_token_gets_the_v2_event_and_the_claims(stack: LocalRuntime) -> None:
    # Given a player's token
    token = stack.token("ann")
    # When the player calls a route behind the JWT authorizer
    status, body = call(stack, "GET", "/hello/bob?x=1&x=2", token=token)
    # Then the handler got the payload 2.0 event, with the environment the template gives it
    assert status == 200
    assert body["routeKey"] == "GET /hello/{name}"
    assert body["rawPath"] == "/hello/bob"
    assert body["pathParameters"] == {"name": "bob"}
    assert body["query"] == {"x": "1,2"}
    assert body["method"] == "GET"
    assert body["claims"]["sub"] == "ann"
    assert body["claims"]["cognito:groups"] == "[players]"  # API Gateway passes a list claim as text
    assert body["function"] == "Fixture-HttpFunction"
    assert body["events_table"] == "Fixture-EventsTable"
    assert "EVENTS_TABLE" not in os.environ  # the function's environment is its own


def test_operator_token_carries_the_operators_group(stack: LocalRuntime) -> None:
    status, body = call(stack, "GET", "/hello/x", token=stack.token("olga", operator=True))
    assert status == 200
    assert body["claims"]["cognito:groups"] == "[operators]"


def test_http_route_without_a_valid_token_is_401(stack: LocalRuntime) -> None:
    claims = jwt.decode(stack.token("ann"), options={"verify_signature": False})
    foreign = jwt.encode({**claims}, "not-the-key-of-the-local-stack-at-all", algorithm="HS256")
    expired = stack.keys.mint("ann", stack.auth, ttl_seconds=-10)
    other_audience = stack.keys.mint("ann", type(stack.auth)(stack.auth.issuer, ("someone-else",)))
    other_issuer = stack.keys.mint("ann", type(stack.auth)("https://elsewhere", stack.auth.audiences))
    for token in (None, "garbage", foreign, expired, other_audience, other_issuer):
        status, body = call(stack, "GET", "/hello/bob", token=token)
        assert (status, body) == (401, {"message": "Unauthorized"}), token


def test_routes_match_as_api_gateway_does(stack: LocalRuntime) -> None:
    token = stack.token("ann")
    # the literal route wins over the parameter
    assert call(stack, "GET", "/hello/me", token=token)[1]["routeKey"] == "GET /hello/me"
    # a route without an authorizer needs no token
    assert call(stack, "GET", "/public")[1]["claims"] is None
    # no route: API Gateway's 404; a failing handler: its 500
    assert call(stack, "GET", "/nowhere") == (404, {"message": "Not Found"})
    assert call(stack, "POST", "/public") == (404, {"message": "Not Found"})
    assert call(stack, "GET", "/boom") == (500, {"message": "Internal Server Error"})


def test_cors_as_the_api_configures_it(stack: LocalRuntime) -> None:
    # API Gateway answers the preflight itself
    preflight = urllib.request.Request(
        stack.urls["http"] + "/hello/bob",
        method="OPTIONS",
        headers={"Origin": "https://poker.example", "Access-Control-Request-Method": "GET"},
    )
    with urllib.request.urlopen(preflight, timeout=PATIENCE) as response:
        assert response.status == 204
        assert response.headers["Access-Control-Allow-Origin"] == "https://poker.example"
        assert response.headers["Access-Control-Allow-Methods"] == "GET,POST"
        assert response.headers["Access-Control-Allow-Headers"] == "Authorization,Content-Type"
        assert response.headers["Access-Control-Max-Age"] == "600"
    # and adds the origin to answers for an allowed origin only
    for origin, expected in (("https://poker.example", "https://poker.example"), ("https://elsewhere", None)):
        request = urllib.request.Request(stack.urls["http"] + "/public", headers={"Origin": origin})
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            assert response.headers.get("Access-Control-Allow-Origin") == expected


# ---------------------------------------------------------------------- WebSocket API


def management(stack: LocalRuntime) -> Any:
    return boto3.client(
        "apigatewaymanagementapi",
        endpoint_url=f"{stack.urls['http']}/live",
        region_name="us-east-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        config=Config(retries={"max_attempts": 1}),
    )


def test_websocket_connect_message_push_and_gone_after_disconnect(stack: LocalRuntime) -> None:
    ws_url = stack.urls["ws"]
    assert ws_url.endswith("/live")
    client = management(stack)

    async def scenario() -> tuple[str, list[Any]]:
        async with aiohttp.ClientSession() as session:
            # Given $connect refuses a connection without a token
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(ws_url)
            assert refused.value.status == 401
            # When a client connects with one and sends to a custom route and to $default
            async with session.ws_connect(f"{ws_url}?token={stack.token('ann')}") as ws:
                await ws.send_str(json.dumps({"action": "echo", "text": "hi"}))
                pushed = await ws.receive_json(timeout=PATIENCE)  # through @connections, by the handler
                reply = await ws.receive_json(timeout=PATIENCE)  # the two-way route's answer
                await ws.send_str(json.dumps({"action": "no-such-route"}))
                default = await ws.receive_json(timeout=PATIENCE)
                connection_id = reply["connectionId"]
                # the management API: describe and post from outside
                info = await asyncio.to_thread(client.get_connection, ConnectionId=connection_id)
                assert info["Identity"]["SourceIp"] == "127.0.0.1"
                await asyncio.to_thread(client.post_to_connection, ConnectionId=connection_id, Data=b'{"n": 1}')
                posted = await ws.receive_json(timeout=PATIENCE)
            return connection_id, [pushed, reply, default, posted]

    connection_id, (pushed, reply, default, posted) = asyncio.run(scenario())
    # Then the handler saw a MESSAGE event of stage `live`, and pushed to the connection
    assert pushed == {"pushed": "hi", "eventType": "MESSAGE", "stage": "live"}
    assert reply["reply"] == "ack"
    assert default == {"default": True, "routeKey": "$default"}
    assert posted == {"n": 1}
    # And after the client left: $disconnect ran, and the connection is gone
    wait_for(lambda: connection_id in events(stack, "disconnect"))
    with pytest.raises(client.exceptions.GoneException):
        client.post_to_connection(ConnectionId=connection_id, Data=b"{}")
    with pytest.raises(client.exceptions.GoneException):
        client.get_connection(ConnectionId=connection_id)


def test_websocket_delete_connection_closes_it(stack: LocalRuntime) -> None:
    client = management(stack)

    async def scenario() -> Any:
        async with aiohttp.ClientSession() as session, session.ws_connect(f"{stack.urls['ws']}?token=t") as ws:
            await ws.send_str(json.dumps({"action": "echo", "text": "x"}))
            await ws.receive_json(timeout=PATIENCE)
            connection_id = (await ws.receive_json(timeout=PATIENCE))["connectionId"]
            await asyncio.to_thread(client.delete_connection, ConnectionId=connection_id)
            message = await ws.receive(timeout=PATIENCE)
            return message.type, message.data

    assert asyncio.run(scenario()) == (aiohttp.WSMsgType.CLOSE, 1000)


# ---------------------------------------------------------------------- SQS, schedules, workflows


def test_delayed_message_is_delivered_by_the_event_source_mapping_time_compressed(stack: LocalRuntime) -> None:
    # Given a message sent with a 60-second delay (one second at 60x)
    marker = uuid.uuid4().hex
    sent = time.monotonic()
    assert call(stack, "POST", "/delayed", {"delay": 60, "marker": marker}, stack.token("ann"))[0] == 202
    # Then the mapping delivers it to the worker after the compressed delay, never sooner, and (``wait_for``
    # gives up after ``PATIENCE``) before the minute it would take uncompressed
    found = wait_for(lambda: [e for e in events(stack, "sqs") if e["body"].get("marker") == marker])
    assert time.monotonic() - sent >= 0.9
    assert found[0]["source"].endswith(":Fixture-DelayQueue")
    assert found[0]["attributes"]["ApproximateReceiveCount"] == "1"


def test_failed_records_are_retried_then_dead_lettered(stack: LocalRuntime) -> None:
    # Given a record the worker reports as failed (batchItemFailures)
    marker = uuid.uuid4().hex
    call(stack, "POST", "/delayed", {"delay": 0, "marker": marker, "fail": True}, stack.token("ann"))
    dlq = stack.queue_urls["DelayDlq"]
    sqs = stack.client("sqs")

    # Then after maxReceiveCount (2) deliveries it lands in the dead-letter queue
    def in_dlq() -> list[dict[str, Any]]:
        messages = sqs.receive_message(QueueUrl=dlq, WaitTimeSeconds=0, MaxNumberOfMessages=10).get("Messages", [])
        return [m for m in messages if marker in m["Body"]]

    assert wait_for(in_dlq)


def test_fifo_records_carry_the_group_and_sequence(stack: LocalRuntime) -> None:
    group = uuid.uuid4().hex
    for n in range(3):
        call(stack, "POST", "/ordered", {"group": group, "n": n}, stack.token("ann"))

    def delivered() -> list[dict[str, Any]]:
        found = [e for e in events(stack, "sqs") if e["body"].get("group") == group]
        return found if len(found) == 3 else []

    records = wait_for(delivered)
    records.sort(key=lambda e: int(e["attributes"]["SequenceNumber"]))
    assert [r["body"]["n"] for r in records] == [0, 1, 2]  # in order within the group
    assert {r["attributes"]["MessageGroupId"] for r in records} == {group}
    assert all("MessageDeduplicationId" in r["attributes"] for r in records)


def test_scheduled_rule_and_template_schedule_fire_time_compressed(stack: LocalRuntime) -> None:
    # rate(1 minute) and rate(2 minutes) at 60x: every one and two seconds
    rule = wait_for(lambda: events(stack, "rule"))
    assert rule[0]["detail-type"] == "Scheduled Event"
    assert rule[0]["resources"] == ["arn:aws:events:us-east-1:123456789012:rule/Fixture-EveryMinuteRule"]
    assert wait_for(lambda: events(stack, "sweep"))[0] == {"source": "sweep"}


def test_one_time_schedule_created_at_run_time_fires_and_is_deleted(stack: LocalRuntime) -> None:
    # Given a handler that creates an at(now + 60 s) schedule through the Scheduler API
    marker = uuid.uuid4().hex
    created = time.monotonic()
    assert call(stack, "POST", "/schedules", {"in_seconds": 60, "marker": marker}, stack.token("ann"))[0] == 201
    # Then it fires about a second later (60x), once, and is deleted (ActionAfterCompletion DELETE)
    wait_for(lambda: [e for e in events(stack, "once") if e["marker"] == marker])
    assert time.monotonic() - created >= 0.5
    scheduler = stack.client("scheduler")
    wait_for(lambda: not scheduler.list_schedules(GroupName="fixture-starts")["Schedules"])
    time.sleep(0.5)
    assert len([e for e in events(stack, "once") if e["marker"] == marker]) == 1


def _run_workflow(stack: LocalRuntime, payload: dict[str, Any]) -> dict[str, Any]:
    status, body = call(stack, "POST", "/workflows", payload, stack.token("ann"))
    assert status == 201
    sfn = stack.client("stepfunctions")

    def finished() -> dict[str, Any] | None:
        execution: dict[str, Any] = sfn.describe_execution(executionArn=body["executionArn"])
        return execution if execution["status"] != "RUNNING" else None

    result: dict[str, Any] = wait_for(finished)
    return result


def test_state_machine_runs_lambda_tasks_in_process_with_compressed_waits(stack: LocalRuntime) -> None:
    # Given the workflow: Task (lambda:invoke) -> Wait 30 s -> Wait SecondsPath (30 s) -> Task (function ARN)
    run = uuid.uuid4().hex
    started = time.monotonic()
    execution = _run_workflow(stack, {"run": run, "wait": 30, "fail": False})
    # Then it succeeds, both tasks ran in-process in order, and the minute of waits was compressed: it lasted
    # at least its second at 60x, and (``_run_workflow`` waits at most ``PATIENCE``) less than the minute
    assert execution["status"] == "SUCCEEDED"
    assert json.loads(execution["output"]) == {"step": "second", "done": True, "wait": 0}
    steps = [e["step"] for e in events(stack, "workflow") if e.get("run") == run]
    assert steps == ["first", "second"]
    assert time.monotonic() - started >= 0.9


def test_a_failing_task_is_caught_by_the_state_machine(stack: LocalRuntime) -> None:
    execution = _run_workflow(stack, {"run": uuid.uuid4().hex, "wait": 0, "fail": True})
    assert execution["status"] == "SUCCEEDED"
    assert json.loads(execution["output"]) == {"caught": True}


def test_functions_of_other_runtimes_are_listed_but_not_run(stack: LocalRuntime) -> None:
    helper = stack.functions.lookup("Fixture-NodeHelperFunction")
    assert helper is not None and helper.unavailable
    worker = stack.functions.lookup("arn:aws:lambda:us-east-1:123456789012:function:Fixture-WorkerFunction:$LATEST")
    assert worker is not None and worker.code_dir == (FIXTURE / "handlers" / "worker").resolve()
    # each function has only its own variables, as on AWS
    assert worker.environment["EVENTS_TABLE"] == "Fixture-EventsTable"
    assert "DELAY_QUEUE_URL" not in worker.environment
