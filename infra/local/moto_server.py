"""A moto server on 127.0.0.1 holding the template's tables and queues.

moto runs in this process (``ThreadedMotoServer``), so the runtime also adjusts
it from inside while it runs, and undoes that on stop:

- Lambda invocations (from moto's Step Functions executor, or a handler's
  ``lambda.invoke``) run the in-process handler of the function named;
- an SQS message's delay (``DelaySeconds``) is divided by the time factor;
- the Step Functions executor is switched on (``POST /moto-api/config``);
- DynamoDB costs what the items touched cost, not what the tables hold: a
  ``TransactWriteItems`` keeps a copy of the items it names to roll back to
  (moto deep-copies every table it touches, once per item: a transaction's cost
  grew with every hand and ledger line stored), and the answers of the item
  operations are written as JSON directly (moto walks the service model for
  each attribute of each item, most of a Query's cost). Both give the same
  answers as moto's own (``tests/e2e/test_local_moto_patches.py``).
"""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import logging
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

import boto3
from botocore.config import Config

from infra.local.lambdas import FunctionRegistry, error_payload
from infra.local.template import REGION, Resolver, Template

log = logging.getLogger("infra.local")

PATCHED_MOTO = "5.2.5"
"""The moto release the patches below were written against, pinned exactly in ``pyproject.toml`` and ``uv.lock``.

They replace moto's internals, which any release may change: ``LambdaBackend.invoke``, SQS's ``Message`` delay,
``DynamoDBBackend.transact_write_items``, the DynamoDB models' ``copy``, ``DynamoResult.execute_result`` and (in
``infra/local/workflows.py``) Step Functions' ``WaitFunction._wait_interval``. ``tests/e2e/test_local_moto_pin.py``
fails when the installed, pinned or locked moto is another one: move the pin and this together, after checking
each patch against the new release."""


class MotoServer:
    """A ``ThreadedMotoServer`` on 127.0.0.1 (port 0: a free one)."""

    def __init__(self, port: int = 0) -> None:
        from moto.server import ThreadedMotoServer

        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
        self.url = ""

    def start(self) -> str:
        self._server.start()
        host, port = self._server.get_host_and_port()
        self.url = f"http://{host}:{port}"
        self._post("/moto-api/reset", {})
        self._post("/moto-api/config", {"stepfunctions": {"execute_state_machine": True}})
        return self.url

    @property
    def app(self) -> Any:
        """The server's WSGI application (moto's dispatcher), to call in-process; None before ``start``."""
        server = getattr(self._server, "_server", None)
        return getattr(server, "app", None)

    def stop(self) -> None:
        if self.url:
            with contextlib.suppress(OSError):
                self._post("/moto-api/reset", {})
            self._server.stop()
            self.url = ""

    def _post(self, path: str, body: Mapping[str, Any]) -> None:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            response.read()

    def client(self, service: str) -> Any:
        return boto3.client(
            service,
            endpoint_url=self.url,
            region_name=REGION,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(retries={"max_attempts": 2}),
        )


# ---------------------------------------------------------------------- resources


_TABLE_KEYS = ("KeySchema", "AttributeDefinitions", "LocalSecondaryIndexes")


def create_tables(dynamodb: Any, template: Template, resolver: Resolver) -> dict[str, str]:
    """Every ``AWS::DynamoDB::Table`` (and ``GlobalTable``): keys, indexes, stream, TTL. Names by logical id."""
    names = {}
    for rtype in ("AWS::DynamoDB::Table", "AWS::DynamoDB::GlobalTable"):
        for logical_id, raw in template.of_type(rtype):
            props = resolver.resolve(raw)
            name = resolver.physical_name(logical_id)
            request: dict[str, Any] = {"TableName": name, **{k: props[k] for k in _TABLE_KEYS if k in props}}
            indexes = []
            for index in props.get("GlobalSecondaryIndexes", []):
                index = {k: v for k, v in index.items() if k in ("IndexName", "KeySchema", "Projection")}
                indexes.append(index)
            if indexes:
                request["GlobalSecondaryIndexes"] = indexes
            if "LocalSecondaryIndexes" in request:
                request["LocalSecondaryIndexes"] = [
                    {k: v for k, v in i.items() if k in ("IndexName", "KeySchema", "Projection")}
                    for i in request["LocalSecondaryIndexes"]
                ]
            request["BillingMode"] = "PAY_PER_REQUEST"
            stream = props.get("StreamSpecification") or {}
            if stream.get("StreamViewType"):
                request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream["StreamViewType"]}
            dynamodb.create_table(**request)
            ttl = props.get("TimeToLiveSpecification") or {}
            if _truthy(ttl.get("Enabled")) and ttl.get("AttributeName"):
                dynamodb.update_time_to_live(
                    TableName=name,
                    TimeToLiveSpecification={"Enabled": True, "AttributeName": ttl["AttributeName"]},
                )
            names[logical_id] = name
    return names


_QUEUE_ATTRIBUTES = {
    "DelaySeconds": "DelaySeconds",
    "VisibilityTimeout": "VisibilityTimeout",
    "MessageRetentionPeriod": "MessageRetentionPeriod",
    "MaximumMessageSize": "MaximumMessageSize",
    "ReceiveMessageWaitTimeSeconds": "ReceiveMessageWaitTimeSeconds",
    "FifoQueue": "FifoQueue",
    "ContentBasedDeduplication": "ContentBasedDeduplication",
    "DeduplicationScope": "DeduplicationScope",
    "FifoThroughputLimit": "FifoThroughputLimit",
}


def create_queues(sqs: Any, template: Template, resolver: Resolver) -> dict[str, str]:
    """Every ``AWS::SQS::Queue`` (FIFO, delay, visibility, redrive to its dead-letter queue). URLs by logical id."""
    pending = dict(template.of_type("AWS::SQS::Queue"))
    urls: dict[str, str] = {}
    while pending:
        progressed = False
        for logical_id, raw in list(pending.items()):
            redrive = raw.get("RedrivePolicy")
            target = _referenced_queue(redrive)
            if target is not None and target in pending:
                continue  # create its dead-letter queue first
            props = resolver.resolve(raw)
            attributes = {attr: _attribute_text(props[key]) for key, attr in _QUEUE_ATTRIBUTES.items() if key in props}
            if props.get("RedrivePolicy"):
                policy = props["RedrivePolicy"]
                attributes["RedrivePolicy"] = policy if isinstance(policy, str) else json.dumps(policy)
            name = resolver.physical_name(logical_id)
            urls[logical_id] = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
            del pending[logical_id]
            progressed = True
        if not progressed:
            raise ValueError(f"queues whose dead-letter queues form a cycle: {sorted(pending)}")
    return urls


def _referenced_queue(value: Any) -> str | None:
    """The logical id of the queue a redrive policy points at (``Fn::GetAtt [Q, Arn]``)."""
    if isinstance(value, dict):
        if "Fn::GetAtt" in value:
            target = value["Fn::GetAtt"]
            return str(target[0] if isinstance(target, list) else target.split(".")[0])
        for item in value.values():
            found = _referenced_queue(item)
            if found:
                return found
    if isinstance(value, list):
        for item in value:
            found = _referenced_queue(item)
            if found:
                return found
    return None


def _attribute_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _truthy(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")


# ---------------------------------------------------------------------- patches


class MotoPatches:
    """Lambda invocations routed to the in-process handlers; SQS delays compressed. Undone by ``remove``."""

    def __init__(self, functions: FunctionRegistry, time_factor: float) -> None:
        self.functions = functions
        self.time_factor = time_factor
        self._undo: list[Callable[[], None]] = []

    def install(self) -> None:
        import importlib.metadata

        from moto.awslambda.models import LambdaBackend
        from moto.core.utils import unix_time_millis
        from moto.sqs.models import Message

        if (installed := importlib.metadata.version("moto")) != PATCHED_MOTO:
            log.warning("moto %s is installed; the local runtime's patches are for %s", installed, PATCHED_MOTO)
        original_invoke = LambdaBackend.invoke
        patches = self

        def invoke(
            backend: Any, function_name: str, qualifier: str | None, body: Any, headers: Any, response_headers: Any
        ) -> Any:
            function = patches.functions.lookup(function_name)
            if function is None:
                return original_invoke(backend, function_name, qualifier, body, headers, response_headers)
            event = json.loads(body) if body else {}
            invocation_type = (headers or {}).get("X-Amz-Invocation-Type", "RequestResponse")
            if invocation_type == "Event":
                threading.Thread(target=_invoke_logged, args=(function, event), daemon=True).start()
                return b""
            if invocation_type == "DryRun":
                return b""
            started = time.monotonic()
            step = event.get("step") if isinstance(event, dict) else None  # a workflow task's name, if it has one
            try:
                result = function.invoke(event)
            except Exception as error:  # the handler's failure is the caller's FunctionError
                log.warning("%s failed: %s: %s", function.name, type(error).__name__, error)
                response_headers["x-amz-function-error"] = "Unhandled"
                return json.dumps(error_payload(error)).encode()
            elapsed = (time.monotonic() - started) * 1000
            log.info("INVOKE %s%s %.1f ms", function.name, f" {step}" if isinstance(step, str) else "", elapsed)
            return json.dumps(result).encode()

        LambdaBackend.invoke = invoke  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: setattr(LambdaBackend, "invoke", original_invoke))

        original_delay = Message.delay

        def delay(message: Any, delay_seconds: int) -> None:
            message.delayed_until = unix_time_millis() + int(delay_seconds) * 1000 / patches.time_factor

        Message.delay = delay  # type: ignore[method-assign,assignment]
        self._undo.append(lambda: setattr(Message, "delay", original_delay))
        self._undo.append(install_dynamodb_patches())

    def remove(self) -> None:
        while self._undo:
            self._undo.pop()()


def _invoke_logged(function: Any, event: Any) -> None:
    try:
        function.invoke(event)
    except Exception:
        log.exception("%s failed (asynchronous invocation)", function.name)


# ---------------------------------------------------------------------- DynamoDB: cost by the items touched

#: Operations whose answer is items and keys only (no timestamps, no blobs but the items' own base64 text):
#: the answer moto builds is already the wire format.
FAST_JSON_OPERATIONS = frozenset(
    {
        "GetItem",
        "PutItem",
        "UpdateItem",
        "DeleteItem",
        "Query",
        "Scan",
        "BatchGetItem",
        "BatchWriteItem",
        "TransactGetItems",
        "TransactWriteItems",
    }
)


class _TableIdentity:
    """``copy`` for moto's DynamoDB backend module: tables are not copied (``_ItemsBackup`` keeps what the
    transaction touches), anything else is."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def deepcopy(self, value: Any, memo: Any = None) -> Any:
        from moto.dynamodb.models.table import Table

        if isinstance(value, Table):
            return value
        return self._real.deepcopy(value, memo)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _ItemsBackup:
    """The items a ``TransactWriteItems`` names, as they were, and each stream's length, to roll back to."""

    def __init__(self, backend: Any, transact_items: list[dict[str, Any]]) -> None:
        from moto.dynamodb.models.dynamo_type import DynamoType

        self._saved: list[tuple[Any, Any, Any, Any, bool]] = []
        self._streams: dict[int, tuple[Any, int]] = {}
        seen = set()
        for entry in transact_items:
            try:
                op_type, op = next(iter(entry.items()))
                table = backend.tables[op["TableName"]]
                attrs = op["Item"] if op_type == "Put" else op["Key"]
                hash_key = DynamoType(attrs[table.hash_key_attr])
                range_key = DynamoType(attrs[table.range_key_attr]) if table.range_key_attr else None
            except (KeyError, StopIteration, TypeError, AttributeError):
                continue  # moto refuses it before it changes anything
            marker = (id(table), str(hash_key), str(range_key))
            if marker in seen:
                continue  # moto refuses two operations on one item (and the first copy is the one to restore)
            seen.add(marker)
            had_hash = hash_key in table.items
            item = table.get_item(hash_key, range_key) if had_hash or range_key is None else None
            self._saved.append((table, hash_key, range_key, copy.deepcopy(item), had_hash))
            shard = table.stream_shard
            if shard is not None and id(shard) not in self._streams:
                self._streams[id(shard)] = (shard, len(shard.items))

    def restore(self) -> None:
        for table, hash_key, range_key, item, had_hash in reversed(self._saved):
            if range_key is None:
                if item is None:
                    table.items.pop(hash_key, None)
                else:
                    table.items[hash_key] = item
                continue
            rows = table.items[hash_key]
            if item is None:
                rows.pop(range_key, None)
            else:
                rows[range_key] = item
            if not rows and not had_hash:
                table.items.pop(hash_key, None)
        for shard, length in self._streams.values():
            del shard.items[length:]


def _blob(value: Any) -> str:
    """A binary attribute (moto keeps the decoded bytes) as the wire's base64 text."""
    if isinstance(value, bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not JSON")


def install_dynamodb_patches(check: bool = False) -> Callable[[], None]:
    """Transactions roll back the items they touched; item operations answer JSON directly. Returns the undo.

    ``check``: also build moto's own answer and fail on any difference (the tests).
    """
    import moto.dynamodb.models as backend_module
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.responses import DynamoResult

    original_transact = DynamoDBBackend.transact_write_items
    original_copy = backend_module.__dict__["copy"]

    def transact_write_items(backend: Any, transact_items: list[dict[str, Any]]) -> None:
        backup = _ItemsBackup(backend, transact_items)
        try:
            original_transact(backend, transact_items)
        except BaseException:
            backup.restore()
            raise

    original_execute = DynamoResult.execute_result

    def execute_result(result: Any, context: Any) -> Any:
        if context.operation_model.name not in FAST_JSON_OPERATIONS:
            return original_execute(result, context)
        shape = context.operation_model.output_shape
        members = shape.members if shape is not None else {}
        answer = {k: v for k, v in result.result.items() if v is not None and k in members}
        body = json.dumps(answer, separators=(",", ":"), default=_blob)
        if check:
            _, _, moto_body = original_execute(result, context)
            assert json.loads(moto_body) == json.loads(body), (context.operation_model.name, moto_body, body)
        return 200, {"Content-Type": "application/x-amz-json-1.0"}, body

    setattr(DynamoDBBackend, "transact_write_items", transact_write_items)  # noqa: B010
    setattr(backend_module, "copy", _TableIdentity(original_copy))  # noqa: B010
    setattr(DynamoResult, "execute_result", execute_result)  # noqa: B010

    def undo() -> None:
        setattr(DynamoDBBackend, "transact_write_items", original_transact)  # noqa: B010
        setattr(backend_module, "copy", original_copy)  # noqa: B010
        setattr(DynamoResult, "execute_result", original_execute)  # noqa: B010

    return undo
