"""The template's Lambda functions, run in-process.

Each ``AWS::Lambda::Function`` with a Python runtime becomes a
``LocalFunction``: its handler is imported from the repository's
``functions/<name>`` (found from the code asset in ``cdk.out``) with
``layers/`` on ``sys.path``, and each invocation runs with the environment the
template gives that function. The functions share one process, so
``os.environ`` is layered: inside an invocation, reads see that function's
variables first (``function_environment``); outside, the process's own.

A function runs up to ``concurrency`` invocations at a time (default 16, never
more than the template's ``ReservedConcurrentExecutions``), like Lambda scaling
out: each concurrent invocation gets a warm instance of its own, a separate
import of the handler module, so module globals (a resolver's
``current_event``) are never shared by two concurrent calls. Code in
``layers/`` is imported once per process and shared by the instances (as it
is shared by the functions).

A failed invocation is logged as one JSON error record (``FAILURES_LOGGER``): the function, the request id,
the tournament and table of that request (the ids its handler correlated in its own thread, else those its
event names), the error and its stack, as Lambda writes an uncaught error to the function's log stream.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import json
import logging
import os
import re
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from infra.local.template import ACCOUNT_ID, REGION, Resolver, Template, lambda_arn

log = logging.getLogger("infra.local")

FAILURES_LOGGER = "infra.local.failures"
"""The logger of the failed invocations' JSON error records (one line each, the record alone)."""
failures = logging.getLogger(FAILURES_LOGGER)

# ---------------------------------------------------------------------- the layered environment

_overlay: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("local_env", default=None)


class _LayeredEnviron(os._Environ):  # type: ignore[type-arg]
    """``os.environ`` whose reads see the current invocation's variables first."""

    def __getitem__(self, key: str) -> str:
        overlay = _overlay.get()
        if overlay is not None and key in overlay:
            return overlay[key]
        value: str = super().__getitem__(key)
        return value

    def __contains__(self, key: object) -> bool:
        overlay = _overlay.get()
        if overlay is not None and key in overlay:
            return True
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        overlay = _overlay.get()
        seen = set()
        for key in super().__iter__():
            seen.add(key)
            yield key
        if overlay is not None:
            yield from (key for key in overlay if key not in seen)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def copy(self) -> dict[str, str]:
        return dict(self)


def install_layered_environ() -> None:
    """Make ``os.environ`` layered (idempotent; harmless outside invocations)."""
    if not isinstance(os.environ, _LayeredEnviron):
        os.environ.__class__ = _LayeredEnviron
    from infra.local.isolation import isolate_powertools_logger, isolate_powertools_routers

    isolate_powertools_routers()  # concurrent invocations in one process must not share a resolver's event
    isolate_powertools_logger()  # nor the keys of their log lines (function, tournament, table)


@contextlib.contextmanager
def function_environment(variables: Mapping[str, str]) -> Iterator[None]:
    """Within the block, ``os.environ`` reads in this thread see ``variables`` first."""
    install_layered_environ()
    token = _overlay.set(dict(variables))
    try:
        yield
    finally:
        _overlay.reset(token)


# ---------------------------------------------------------------------- context and errors


@dataclass
class LocalContext:
    """The Lambda context object (what Powertools and handlers read)."""

    function_name: str
    memory_limit_in_mb: int
    timeout_seconds: int
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    identity: Any = None
    client_context: Any = None
    _deadline: float = 0.0

    def __post_init__(self) -> None:
        self._deadline = time.monotonic() + self.timeout_seconds
        self.invoked_function_arn = lambda_arn(self.function_name)
        self.log_group_name = f"/aws/lambda/{self.function_name}"
        self.log_stream_name = time.strftime("%Y/%m/%d/[$LATEST]") + uuid.uuid4().hex

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


class FunctionUnavailable(Exception):
    """The function cannot run locally (not Python, inline code, code not found)."""


def _parsed(body: Any) -> Any:
    if isinstance(body, str):
        try:
            return json.loads(body)
        except ValueError:
            return None
    return body


def _event_ids(event: Any) -> dict[str, str]:
    """The tournament and table an event names: a route's path, a message's body, a task's or schedule's input."""
    if not isinstance(event, Mapping):
        return {}
    records = event.get("Records")
    first = records[0] if isinstance(records, list) and records and isinstance(records[0], Mapping) else {}
    parameters = event.get("pathParameters")
    path: Mapping[str, Any] = parameters if isinstance(parameters, Mapping) else {}
    candidates = [
        {"tournament_id": path.get("id"), "table_id": path.get("table")},
        *(_parsed(body) for body in (event.get("body"), first.get("body"))),
        event,
    ]
    found: dict[str, str] = {}
    for candidate in candidates:
        if not isinstance(candidate, Mapping):
            continue
        for key, names in (("tournament_id", ("tournament_id",)), ("table_id", ("table_id", "table"))):
            value = next((candidate[n] for n in names if candidate.get(n) is not None), None)
            if key not in found and isinstance(value, str | int) and not isinstance(value, bool):
                found[key] = str(value)
    return found


def log_failure(function: str, context: LocalContext, event: Any, error: BaseException) -> None:
    """One JSON error record for a failed invocation: its function, request, tournament, table and error."""
    from infra.local.isolation import correlated_ids

    ids = {**_event_ids(event), **correlated_ids()}
    record = {
        "level": "ERROR",
        "message": "invocation failed",
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "function": function,
        "request_id": context.aws_request_id,
        "tournament_id": ids.get("tournament_id"),
        "table_id": ids.get("table_id"),
        "error_type": type(error).__name__,
        "error_message": str(error),
        "stack_trace": traceback.format_exception(error),
    }
    failures.error(json.dumps(record, default=str))


def error_payload(error: BaseException) -> dict[str, Any]:
    """What Lambda answers for an unhandled exception."""
    return {
        "errorMessage": str(error),
        "errorType": type(error).__name__,
        "stackTrace": traceback.format_tb(error.__traceback__),
    }


# ---------------------------------------------------------------------- functions

#: Set in every function's environment locally, over the template's: no X-Ray daemon, no EMF on stdout.
LOCAL_OVERRIDES = {
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
}

_import_lock = threading.Lock()

#: Concurrent invocations per function locally (warm instances), unless the template reserves fewer. With 4, under
#: the demo's 60 bots an action waited behind reads of the standings (64 queries each) for a free ``api`` instance.
DEFAULT_CONCURRENCY = 16


@dataclass
class LocalFunction:
    """One function of the template, invocable in-process."""

    logical_id: str
    name: str
    handler: str
    runtime: str
    code_dir: Path | None
    environment: dict[str, str]
    timeout_seconds: int = 3
    memory_mb: int = 128
    unavailable: str | None = None
    concurrency: int = 4
    _lock: threading.Condition = field(default_factory=threading.Condition, repr=False)
    _idle: list[Callable[[Any, Any], Any]] = field(default_factory=list, repr=False)
    _instances: int = field(default=0, repr=False)
    _entry: Callable[[Any, Any], Any] | None = field(default=None, repr=False)
    _module: ModuleType | None = field(default=None, repr=False)

    @property
    def arn(self) -> str:
        return lambda_arn(self.name)

    def invoke(self, event: Any) -> Any:
        """Run the handler on ``event`` (its exceptions propagate, as Lambda reports them)."""
        if self.unavailable:
            raise FunctionUnavailable(f"{self.name}: {self.unavailable}")
        entry = self._acquire()
        try:
            with function_environment(self.environment):
                context = LocalContext(self.name, self.memory_mb, self.timeout_seconds)
                started = time.monotonic()
                try:
                    return entry(event, context)
                except BaseException as error:
                    log_failure(self.name, context, event, error)
                    raise
                finally:
                    elapsed = time.monotonic() - started
                    if elapsed > self.timeout_seconds:
                        log.warning("%s ran %.1f s, over its timeout of %d s", self.name, elapsed, self.timeout_seconds)
        finally:
            with self._lock:
                self._idle.append(entry)
                self._lock.notify()

    def _acquire(self) -> Callable[[Any, Any], Any]:
        """An idle instance's handler; a new instance while under ``concurrency``; else wait for one."""
        with self._lock:
            while not self._idle and self._instances >= max(1, self.concurrency):
                self._lock.wait()
            if self._idle:
                return self._idle.pop()
            self._instances += 1
            instance = self._instances
        try:
            with function_environment(self.environment):
                return self._load() if instance == 1 else self._load_instance(instance)
        except BaseException:
            with self._lock:
                self._instances -= 1
                self._lock.notify()
            raise

    def _load_instance(self, instance: int) -> Callable[[Any, Any], Any]:
        """Another warm instance: the handler module imported again, under a name of its own."""
        module = self._import(f"_{instance}")
        entry: Callable[[Any, Any], Any] = getattr(module, self.handler.rpartition(".")[2])
        return entry

    def _load(self) -> Callable[[Any, Any], Any]:
        if self._entry is not None:
            return self._entry
        module = self._import("")
        self._module = module
        self._entry = getattr(module, self.handler.rpartition(".")[2])
        return self._entry

    def _import(self, suffix: str) -> ModuleType:
        assert self.code_dir is not None
        module_path = self.handler.rpartition(".")[0]
        file = self.code_dir / (module_path.replace(".", "/") + ".py")
        if not file.exists():
            file = self.code_dir / module_path.replace(".", "/") / "__init__.py"
        if not file.exists():
            raise FunctionUnavailable(f"{self.name}: no module {module_path} in {self.code_dir}")
        module_name = (
            f"_tourney_local_{re.sub(r'[^0-9A-Za-z_]', '_', self.name)}_{module_path.replace('.', '_')}{suffix}"
        )
        with _import_lock:
            spec = importlib.util.spec_from_file_location(module_name, file)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            code_dir = str(self.code_dir)
            sys.path.insert(0, code_dir)
            try:
                spec.loader.exec_module(module)
            except BaseException:
                sys.modules.pop(module_name, None)
                raise
            finally:
                sys.path.remove(code_dir)
                if code_dir not in sys.path:
                    sys.path.append(code_dir)
        return module


class FunctionRegistry:
    """The functions by name and ARN (qualifiers and partial ARNs accepted)."""

    def __init__(self, functions: list[LocalFunction]) -> None:
        self.functions = functions
        self._by_name = {f.name: f for f in functions}
        self._by_logical_id = {f.logical_id: f for f in functions}

    def __iter__(self) -> Iterator[LocalFunction]:
        return iter(self.functions)

    def by_logical_id(self, logical_id: str) -> LocalFunction | None:
        return self._by_logical_id.get(logical_id)

    def lookup(self, name_or_arn: str) -> LocalFunction | None:
        """``api``, ``api:$LATEST``, ``arn:aws:lambda:...:function:api[:alias]``, ``123...:function:api``."""
        text = name_or_arn
        if ":function:" in text:
            text = text.split(":function:", 1)[1]
        name = text.split(":", 1)[0]
        return self._by_name.get(name)


# ---------------------------------------------------------------------- reading the template


def _normalized(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _repo_code_dir(asset_dir: Path, handler: str, repo_root: Path, hints: list[str]) -> Path | None:
    """The ``functions/<name>`` folder of the repository that a CDK asset (``asset.<hash>``) was copied from.

    The folder whose handler module has the asset's content; else (edited since the synth) the folder
    named by the construct path or logical id (the longest name found in them).
    """
    functions_dir = repo_root / "functions"
    if not functions_dir.is_dir():
        return None
    module_file = handler.rpartition(".")[0].replace(".", "/") + ".py"
    candidates = [d for d in sorted(functions_dir.iterdir()) if (d / module_file).is_file()]
    asset_module = asset_dir / module_file
    if asset_module.is_file():
        content = asset_module.read_bytes()
        same = [d for d in candidates if (d / module_file).read_bytes() == content]
        if len(same) == 1:
            return same[0]
        candidates = same or candidates
    normalized_hints = [_normalized(h) for h in hints if h]
    for candidate in candidates:
        if _normalized(candidate.name) in normalized_hints:
            return candidate
    found = [c for c in candidates if any(_normalized(c.name) in hint for hint in normalized_hints)]
    return max(found, key=lambda c: len(_normalized(c.name))) if found else None


def _code_dir(template: Template, logical_id: str, props: Mapping[str, Any], repo_root: Path) -> Path | None:
    metadata = template.metadata(logical_id)
    asset = metadata.get("aws:asset:path")
    base = template.path.parent if template.path else Path.cwd()
    asset_dir = None
    if asset:
        asset_dir = Path(asset) if Path(asset).is_absolute() else base / asset
    handler = str(props.get("Handler", "index.handler"))
    cdk_path = str(metadata.get("aws:cdk:path", ""))
    hints = [
        *(str(v) for k, v in metadata.items() if isinstance(v, str) and not k.startswith("aws:asset")),
        *reversed(cdk_path.split("/")),
        logical_id,
        str(props.get("FunctionName", "")),
    ]
    if asset_dir is None:
        return None
    if asset_dir.name.startswith("asset."):  # a copy made by CDK: run the repository's folder
        from_repo = _repo_code_dir(asset_dir, handler, repo_root, hints)
        if from_repo is not None:
            return from_repo
    return asset_dir.resolve() if asset_dir.is_dir() else None


def read_functions(
    template: Template, resolver: Resolver, repo_root: Path, extra_env: Mapping[str, str]
) -> FunctionRegistry:
    """Every ``AWS::Lambda::Function`` of the template, its environment resolved locally.

    Each function sees only its own variables, as on AWS, so a variable the template forgets to give a
    function is missing locally too. The functions share one process, though: code shared by them must not
    cache what it read from the environment process-wide, only per environment (``tourney.entrypoints``
    keys its settings and services on the variables it reads).
    """
    functions = []
    deploy_time = custom_resource_providers(template)
    for logical_id, props in template.of_type("AWS::Lambda::Function"):
        if logical_id in deploy_time:
            continue
        name = resolver.physical_name(logical_id)
        runtime = str(props.get("Runtime", ""))
        handler = str(props.get("Handler", ""))
        code = props.get("Code", {}) or {}
        variables = {
            k: _env_text(v)
            for k, v in resolver.resolve((props.get("Environment") or {}).get("Variables") or {}).items()
        }
        timeout = int(resolver.resolve(props.get("Timeout", 3)))
        reserved = props.get("ReservedConcurrentExecutions")
        concurrency = (
            DEFAULT_CONCURRENCY if reserved is None else min(DEFAULT_CONCURRENCY, int(resolver.resolve(reserved)))
        )
        memory = int(resolver.resolve(props.get("MemorySize", 128)))
        environment = {
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_LAMBDA_FUNCTION_NAME": name,
            "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(memory),
            "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{name}",
            "AWS_EXECUTION_ENV": f"AWS_Lambda_{runtime}",
            "LAMBDA_TASK_ROOT": "",
            "_HANDLER": handler,
            "TOURNEY_LOCAL": "1",
            **{k: str(v) for k, v in extra_env.items()},
            **variables,
            **LOCAL_OVERRIDES,
        }
        unavailable = None
        code_dir = None
        if not runtime.startswith("python"):
            unavailable = f"runtime {runtime or 'unknown'} is not run locally (Python only)"
        elif "ZipFile" in code:
            unavailable = "inline code is not run locally"
        else:
            code_dir = _code_dir(template, logical_id, props, repo_root)
            if code_dir is None:
                unavailable = "its code was not found (no asset folder, no functions/<name>)"
        if code_dir is not None:
            environment["LAMBDA_TASK_ROOT"] = str(code_dir)
        functions.append(
            LocalFunction(
                logical_id=logical_id,
                name=name,
                handler=handler,
                runtime=runtime,
                code_dir=code_dir,
                environment=environment,
                timeout_seconds=timeout,
                memory_mb=memory,
                unavailable=unavailable,
                concurrency=max(1, concurrency),
            )
        )
    return FunctionRegistry(functions)


def custom_resource_providers(template: Template) -> set[str]:
    """Functions that only CloudFormation calls, at deploy time: a custom resource's ``ServiceToken``.

    CDK's own (the web client's ``BucketDeployment``, for one) are not the app's: not run locally.
    """
    providers = set()
    for resource in template.resources.values():
        rtype = str(resource.get("Type", ""))
        if rtype.startswith("Custom::") or rtype == "AWS::CloudFormation::CustomResource":
            token = (resource.get("Properties") or {}).get("ServiceToken")
            if isinstance(token, dict) and "Fn::GetAtt" in token:
                target = token["Fn::GetAtt"]
                providers.add(str(target[0] if isinstance(target, list) else str(target).partition(".")[0]))
    return providers


def _env_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def base_environment(moto_url: str, secret: str = "testing") -> dict[str, str]:
    """What the process (and so every in-process handler) needs to reach the local AWS; ``secret`` signs its
    requests (the gateway's ``@connections`` API checks it, moto does not)."""
    return {
        "AWS_ENDPOINT_URL": moto_url,
        "AWS_ENDPOINT_URL_DYNAMODB": moto_url,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": secret,
        "AWS_SESSION_TOKEN": "testing",
        "AWS_REGION": REGION,
        "AWS_DEFAULT_REGION": REGION,
        "AWS_ACCOUNT_ID": ACCOUNT_ID,
    }
