"""The limits the synthesized template sets: each function's reserved concurrency, memory and architecture, its
queue's batch size and maximum concurrency, and each API stage's throttle.

Read from the CloudFormation template ``python app.py`` writes into ``cdk.out/`` (the one wiring, read as the local
runtime reads it: ``infra/local/template.py``). A function is known by its ``tourney:function`` metadata
(``infra/functions.py``), a stage by its API's ``ProtocolType`` (``HTTP``, ``WEBSOCKET``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra.local.template import Template, load_stack
from tourney.simulation.aws.capacity import Concurrency, TokenBucket

DEFAULT_MEMORY_MB = 128
"""Lambda's default when a function sets no ``MemorySize``."""


@dataclass(frozen=True)
class FunctionLimits:
    name: str
    reserved: int | None
    memory_mb: int
    architecture: str
    batch_size: int | None = None
    """Its SQS event source's ``BatchSize`` (None: no queue invokes it)."""
    maximum_concurrency: int | None = None
    """Its SQS event source's ``ScalingConfig.MaximumConcurrency``."""


@dataclass(frozen=True)
class StageThrottle:
    rate_per_second: float
    burst: int

    def bucket(self) -> TokenBucket:
        return TokenBucket(self.rate_per_second, self.burst)


@dataclass(frozen=True)
class TemplateLimits:
    functions: Mapping[str, FunctionLimits]
    stages: Mapping[str, StageThrottle]
    """By protocol: ``HTTP``, ``WEBSOCKET``."""

    @classmethod
    def from_cdk_out(cls, cdk_out: Path, stack_name: str | None = None) -> TemplateLimits:
        return cls.from_template(load_stack(cdk_out, stack_name))

    @classmethod
    def from_template(cls, template: Template) -> TemplateLimits:
        functions: dict[str, FunctionLimits] = {}
        by_logical_id: dict[str, str] = {}
        for logical_id, props in template.of_type("AWS::Lambda::Function"):
            name = template.metadata(logical_id).get("tourney:function")
            if not name:
                continue  # a deploy-time helper (CDK's bucket deployment), not one of ours
            reserved = props.get("ReservedConcurrentExecutions")
            functions[name] = FunctionLimits(
                name=name,
                reserved=None if reserved is None else int(reserved),
                memory_mb=int(props.get("MemorySize", DEFAULT_MEMORY_MB)),
                architecture=str((props.get("Architectures") or ["x86_64"])[0]),
            )
            by_logical_id[logical_id] = name
        for _, props in template.of_type("AWS::Lambda::EventSourceMapping"):
            name = by_logical_id.get(_ref(props.get("FunctionName")))
            if name is None:
                continue
            scaling = props.get("ScalingConfig") or {}
            batch, most = props.get("BatchSize"), scaling.get("MaximumConcurrency")
            functions[name] = dataclasses.replace(
                functions[name],
                batch_size=None if batch is None else int(batch),
                maximum_concurrency=None if most is None else int(most),
            )
        stages: dict[str, StageThrottle] = {}
        for _, props in template.of_type("AWS::ApiGatewayV2::Stage"):
            settings = props.get("DefaultRouteSettings") or {}
            rate, burst = settings.get("ThrottlingRateLimit"), settings.get("ThrottlingBurstLimit")
            api = template.resources.get(_ref(props.get("ApiId")), {}).get("Properties", {})
            if rate is not None and burst is not None and api.get("ProtocolType"):
                stages[str(api["ProtocolType"])] = StageThrottle(float(rate), int(burst))
        return cls(functions, stages)

    def concurrency(self) -> dict[str, Concurrency]:
        """A fresh :class:`Concurrency` per function, at its reservation."""
        return {name: Concurrency(limits.reserved) for name, limits in self.functions.items()}


def _ref(value: Any) -> str:
    return str(value.get("Ref", "")) if isinstance(value, Mapping) else str(value or "")
