"""Running a workflow's description (``infra/workflow_states.py``) as Step Functions runs its state machine.

:func:`interpret` walks the states over the execution's JSON data: it applies the Choice rules, the
Pass results, the payloads, ``ResultPath`` and ``ResultSelector`` itself, and yields what takes time
or runs the task function (a :class:`Task`, a :class:`Wait`, a :class:`Map`) to whoever runs it: the
simulated cloud (``Cloud.execute``: timing, retries, concurrency, faults) or :func:`run_at_once` (the
test drivers: in memory, no timing).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any

from infra import workflow_states as states


@dataclass
class Task:
    """A workflow's Lambda task (``step`` of its task function).

    ``catch``: once its retries are spent, the workflow receives :data:`CAUGHT` instead of failing
    (a ``Catch`` on ``States.ALL``).
    """

    step: str
    call: Callable[[], Any]
    catch: bool = False


CAUGHT = object()
"""What a task with a ``Catch`` answers when it failed and its retries are spent."""


@dataclass
class Wait:
    seconds: float


@dataclass
class Map:
    """A workflow's Map state: one ``step`` task per call, at most ``concurrency`` at once; answers in order."""

    step: str
    calls: list[Callable[[], Any]]
    concurrency: int


Workflow = Generator[Task | Wait | Map, Any, None]
Call = Callable[[str, dict[str, Any]], Any]
"""Invokes the task function: ``(step, payload)`` -> its answer (JSON-shaped)."""


def read(data: Mapping[str, Any], path: str, item: Any = None) -> Any:
    """The value at ``path`` (``$.a.b``; ``$$.Map.Item.Value`` is the Map's item); ``KeyError`` when absent."""
    if path == "$$.Map.Item.Value":
        return item
    value: Any = data
    for key in path.removeprefix("$").split(".")[1:]:
        value = value[key]
    return value


def _present(data: Mapping[str, Any], path: str) -> bool:
    try:
        read(data, path)
    except (KeyError, TypeError):
        return False
    return True


def _put(data: dict[str, Any], path: str | None, value: Any) -> dict[str, Any]:
    """``data`` with ``value`` at ``path`` (``ResultPath``; ``None`` drops it)."""
    if path is None:
        return data
    keys = path.removeprefix("$").split(".")[1:]
    if not keys:
        return dict(value)
    top = dict(data)
    node = top
    for key in keys[:-1]:
        node[key] = dict(node.get(key) or {})
        node = node[key]
    node[keys[-1]] = value
    return top


def _payload(task: states.Task, data: Mapping[str, Any], item: Any = None) -> dict[str, Any]:
    return {"step": task.step, **{key: read(data, path, item) for key, path in task.fields}}


def _holds(rule: states.When, data: Mapping[str, Any]) -> bool:
    if not _present(data, rule.variable):
        return False
    if rule.test == "is_present":
        return True
    value = read(data, rule.variable)
    kind = bool if rule.test == "boolean_equals" else str
    return isinstance(value, kind) and value == rule.value


def _choose(state: states.Choice, data: Mapping[str, Any]) -> str:
    return next((rule.next for rule in state.rules if _holds(rule, data)), state.otherwise)


def _answered(task: states.Task, data: dict[str, Any], answer: Any) -> tuple[dict[str, Any], str | None]:
    """The data after the task's answer, and the next state."""
    if answer is CAUGHT:
        assert task.catch is not None
        caught = {"Error": "States.ALL", "Cause": "the task failed, its retries spent"}
        return _put(data, task.catch.result_path, caught), task.catch.next
    if task.result_selector:
        answer = {key: read(answer, f"$.{key}") for key in task.result_selector}
    return _put(data, task.result_path, answer), task.next


def interpret(definition: states.Definition, data: dict[str, Any], call: Call) -> Workflow:
    """An execution of ``definition`` on the input ``data``: yields its tasks, waits and maps; receives answers."""
    by_name = definition.by_name
    name: str | None = definition.start_at
    while name is not None:
        state = by_name[name]
        if isinstance(state, states.Task):
            answer = yield Task(
                state.step, functools.partial(call, state.step, _payload(state, data)), state.catch is not None
            )
            data, name = _answered(state, data, answer)
        elif isinstance(state, states.Map):
            item_data = [
                {key: read(data, path, item) for key, path in state.item_fields}
                for item in read(data, state.items_path)
            ]
            calls: list[Callable[[], Any]] = [
                functools.partial(call, state.task.step, _payload(state.task, item)) for item in item_data
            ]
            yield Map(state.task.step, calls, state.concurrency)
            name = state.next
        elif isinstance(state, states.Wait):
            yield Wait(float(read(data, state.seconds_path) or 0))
            name = state.next
        elif isinstance(state, states.Pass):
            data, name = _put(data, state.result_path, state.result), state.next
        elif isinstance(state, states.Choice):
            name = _choose(state, data)
        else:
            name = None


def run_at_once(definition: states.Definition, data: dict[str, Any], call: Call) -> None:
    """Runs an execution in memory, at once: every task called in turn (a Map's in order), waits skipped.

    A task that raises ends the run with its error (a failed execution).
    """
    body = interpret(definition, data, call)
    answer: Any = None
    while True:
        try:
            state = body.send(answer)
        except StopIteration:
            return
        if isinstance(state, Task):
            answer = state.call()
        elif isinstance(state, Map):
            answer = [each() for each in state.calls]
        else:
            answer = None
