"""Reading the synthesized template in the infra tests: the assembly, intrinsic functions as text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Synthesized:
    outdir: Path
    template: dict[str, Any]
    report: dict[str, Any]
    seconds: float

    @property
    def resources(self) -> dict[str, dict[str, Any]]:
        resources: dict[str, dict[str, Any]] = self.template["Resources"]
        return resources

    def of_type(self, kind: str) -> dict[str, dict[str, Any]]:
        return {name: r for name, r in self.resources.items() if r["Type"] == kind}

    def of_app(self, kind: str) -> dict[str, dict[str, Any]]:
        """The resources of a type that the app's own constructs declare (``tourney:*`` metadata): the functions
        and layers, not CDK's deploy-time helpers (the web client's BucketDeployment function and its CLI layer)."""
        return {
            name: r
            for name, r in self.of_type(kind).items()
            if any(key.startswith("tourney:") for key in r.get("Metadata", {}))
        }

    def with_metadata(self, key: str, value: str) -> tuple[str, dict[str, Any]]:
        """The one resource whose Metadata ``key`` is ``value`` (logical id, resource)."""
        found = [(n, r) for n, r in self.resources.items() if r.get("Metadata", {}).get(key) == value]
        assert len(found) == 1, f"{len(found)} resources with {key}={value}"
        return found[0]


def render(value: Any) -> Any:
    """Intrinsic functions as readable text: ``{"Fn::GetAtt": ["X", "Arn"]}`` -> ``"<X.Arn>"``, ``Ref`` -> ``<X>``."""
    if isinstance(value, dict) and len(value) == 1:
        ((key, argument),) = value.items()
        if key == "Ref":
            return f"<{argument}>"
        if key == "Fn::GetAtt":
            return f"<{argument[0]}.{argument[1]}>"
        if key == "Fn::Join":
            separator, parts = argument
            return separator.join(str(render(part)) for part in parts)
        if key == "Fn::Select":
            return f"<select {argument[0]} of {render(argument[1])}>"
        if key == "Fn::Split":
            return f"<split {render(argument[1])} on {argument[0]}>"
    if isinstance(value, dict):
        return {k: render(v) for k, v in value.items()}
    if isinstance(value, list):
        return [render(v) for v in value]
    return value


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def every_statement(synthesized: Synthesized) -> list[tuple[list[str], dict[str, Any]]]:
    """(roles, statement) for every statement of every IAM policy and inline role policy, intrinsics rendered."""
    found: list[tuple[list[str], dict[str, Any]]] = []
    for policy in synthesized.of_type("AWS::IAM::Policy").values():
        roles = [render(role) for role in policy["Properties"].get("Roles", [])]
        found.extend((roles, s) for s in render(policy["Properties"]["PolicyDocument"]["Statement"]))
    for name, role in synthesized.of_type("AWS::IAM::Role").items():
        for inline in role["Properties"].get("Policies", []):
            found.extend(([f"<{name}>"], s) for s in render(inline["PolicyDocument"]["Statement"]))
    return found


def granted_on(synthesized: Synthesized, arn: str) -> dict[str, set[str]]:
    """Each role allowed anything on a resource whose ARN starts with ``arn`` (``<TableChat.Arn>``): its actions."""
    granted: dict[str, set[str]] = {}
    for roles, statement in every_statement(synthesized):
        resources = [str(r) for r in as_list(statement.get("Resource", []))]
        if statement.get("Effect") == "Allow" and any(r.startswith(arn) for r in resources):
            for role in roles:
                granted.setdefault(role, set()).update(as_list(statement["Action"]))
    return granted
