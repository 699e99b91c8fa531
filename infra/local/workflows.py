"""The template's state machines, executed by moto's Step Functions executor.

Each ``AWS::StepFunctions::StateMachine`` is created in moto with its definition
resolved (``DefinitionString`` or ``Definition``, ``DefinitionSubstitutions``),
so the ARN handlers get from their environment starts a real execution. Lambda
tasks reach moto's Lambda ``invoke``, which the runtime routes to the in-process
handler (``moto_server.MotoPatches``); handler exceptions become task failures,
so ``Retry`` and ``Catch`` work. ``Wait`` states wait their time divided by the
time factor, or until the virtual clock reaches their timestamp (``WaitCompression``).

Every state machine is created as ``STANDARD``: moto's executor does not run
``EXPRESS`` child executions.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from infra.local.clock import VirtualClock
from infra.local.template import Resolver, Template

log = logging.getLogger("infra.local")


def definition_of(props: dict[str, Any]) -> str:
    """The definition JSON of resolved state machine properties, substitutions applied."""
    text = json.dumps(props["Definition"]) if "Definition" in props else str(props.get("DefinitionString", "{}"))
    for key, value in (props.get("DefinitionSubstitutions") or {}).items():
        text = text.replace("${" + key + "}", value if isinstance(value, str) else json.dumps(value))
    return text


def create_state_machines(stepfunctions: Any, template: Template, resolver: Resolver) -> dict[str, str]:
    """Every state machine of the template, created in moto. ARNs by logical id."""
    arns = {}
    for logical_id, raw in template.of_type("AWS::StepFunctions::StateMachine"):
        props = resolver.resolve(raw)
        role = str(props.get("RoleArn") or f"arn:aws:iam::123456789012:role/{logical_id}")
        answer = stepfunctions.create_state_machine(
            name=resolver.physical_name(logical_id),
            definition=definition_of(props),
            roleArn=role,
            type="STANDARD",
        )
        arns[logical_id] = answer["stateMachineArn"]
    return arns


class WaitCompression:
    """``Wait`` states of moto's executor follow the virtual clock. Undone by ``remove``.

    ``Seconds``/``SecondsPath`` waits last their time divided by the factor; ``Timestamp``/``TimestampPath``
    waits end when the virtual clock reaches the timestamp.
    """

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self._undo: Callable[[], None] | None = None

    def install(self) -> None:
        from moto.stepfunctions.parser.asl.component.state.wait.wait_function.timestamp import Timestamp
        from moto.stepfunctions.parser.asl.component.state.wait.wait_function.wait_function import WaitFunction

        original = WaitFunction._wait_interval
        clock = self.clock

        def wait_interval(function: Any, env: Any, wait_seconds: int) -> None:
            seconds = float(wait_seconds)
            if isinstance(function, Timestamp):  # moto measured to the real now; the timestamp is virtual
                now = time.time()
                seconds -= clock.at(now) - now
            deadline = time.monotonic() + max(0.0, seconds) / clock.factor
            while env.is_running():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                env.program_state_event.wait(min(remaining, 1.0))

        WaitFunction._wait_interval = wait_interval  # type: ignore[method-assign,assignment]
        self._undo = lambda: setattr(WaitFunction, "_wait_interval", original)

    def remove(self) -> None:
        if self._undo is not None:
            self._undo()
            self._undo = None
