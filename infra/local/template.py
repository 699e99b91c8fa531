"""A synthesized CloudFormation template, read for the local runtime.

``Template`` holds the resources of one stack; ``Resolver`` evaluates the
intrinsic functions (``Ref``, ``Fn::GetAtt``, ``Fn::Join``, ``Fn::Sub``,
``Fn::Select``, ``Fn::Split``, ``Fn::If``, ``Fn::FindInMap``...) to the local
equivalents of the resources: table and queue names, queue URLs in the moto
server, ARNs in moto's account and region, and the runtime's own address for
the API Gateway endpoints (``https://{api}.execute-api.{region}.amazonaws.com``
becomes ``http://127.0.0.1:{port}``).

Names are deterministic (``{stack}-{logical id}`` where CloudFormation would
generate one), so ``tourney local token`` resolves the same issuer and
audience as ``tourney local up`` without talking to it.

>>> t = Template("Demo", {"Q": {"Type": "AWS::SQS::Queue", "Properties": {"FifoQueue": True}}})
>>> r = Resolver(t, LocalEndpoints(moto_url="http://127.0.0.1:5000", http_url="http://127.0.0.1:8000"))
>>> r.resolve({"Fn::GetAtt": ["Q", "Arn"]})
'arn:aws:sqs:us-east-1:123456789012:Demo-Q.fifo'
>>> r.resolve({"Fn::Sub": "${AWS::Region}/${Q.QueueName}"})
'us-east-1/Demo-Q.fifo'
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

REGION = "us-east-1"
ACCOUNT_ID = "123456789012"  # moto's default account
PARTITION = "aws"
URL_SUFFIX = "amazonaws.com"

_NO_VALUE = object()


class TemplateError(Exception):
    """The template cannot be read or uses something the local runtime cannot resolve."""


@dataclass(frozen=True)
class Template:
    """One stack's resources (and parameters, conditions, mappings)."""

    stack_name: str
    resources: Mapping[str, Mapping[str, Any]]
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    conditions: Mapping[str, Any] = field(default_factory=dict)
    mappings: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    stack_metadata: Mapping[str, Any] = field(default_factory=dict)
    """The template's own ``Metadata`` (``tourney:sizing``: ``infra/sizing.py``)."""

    @classmethod
    def load(cls, path: Path, stack_name: str | None = None) -> Template:
        try:
            body = json.loads(Path(path).read_text())
        except (OSError, ValueError) as error:
            raise TemplateError(f"cannot read template {path}: {error}") from error
        name = stack_name or Path(path).name.removesuffix(".template.json").removesuffix(".json")
        return cls(
            stack_name=name,
            resources=body.get("Resources", {}),
            parameters=body.get("Parameters", {}),
            conditions=body.get("Conditions", {}),
            mappings=body.get("Mappings", {}),
            path=Path(path),
            stack_metadata=body.get("Metadata", {}) or {},
        )

    def of_type(self, resource_type: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """``(logical id, properties)`` of every resource of a type, in template order."""
        for logical_id, resource in self.resources.items():
            if resource.get("Type") == resource_type:
                yield logical_id, resource.get("Properties", {}) or {}

    def type_of(self, logical_id: str) -> str:
        return str(self.resources.get(logical_id, {}).get("Type", ""))

    def metadata(self, logical_id: str) -> Mapping[str, Any]:
        return self.resources.get(logical_id, {}).get("Metadata", {}) or {}


def stack_templates(cdk_out: Path) -> dict[str, Path]:
    """The stack templates of a cloud assembly, by stack name (from ``manifest.json``)."""
    manifest_path = cdk_out / "manifest.json"
    found: dict[str, Path] = {}
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        for artifact_id, artifact in (manifest.get("artifacts") or {}).items():
            if artifact.get("type") != "aws:cloudformation:stack":
                continue
            props = artifact.get("properties") or {}
            template_file = props.get("templateFile")
            if template_file:
                name = props.get("stackName") or artifact.get("displayName") or artifact_id
                found[str(name)] = cdk_out / template_file
    else:
        for path in sorted(cdk_out.glob("*.template.json")):
            found[path.name.removesuffix(".template.json")] = path
    return found


def load_stack(cdk_out: Path, stack_name: str | None = None) -> Template:
    """The template of ``stack_name``, or of the only stack in ``cdk_out``."""
    stacks = stack_templates(cdk_out)
    if not stacks:
        raise TemplateError(f"no stack template in {cdk_out} (synthesize first)")
    if stack_name is None:
        if len(stacks) > 1:
            raise TemplateError(f"several stacks in {cdk_out}: {sorted(stacks)}; choose one with --stack")
        stack_name = next(iter(stacks))
    if stack_name not in stacks:
        raise TemplateError(f"no stack {stack_name!r} in {cdk_out}: {sorted(stacks)}")
    return Template.load(stacks[stack_name], stack_name)


@dataclass(frozen=True)
class LocalEndpoints:
    """Where the local equivalents listen."""

    moto_url: str = "http://127.0.0.1:5000"
    http_url: str = "http://127.0.0.1:8000"

    @property
    def ws_url(self) -> str:
        return "ws" + self.http_url.removeprefix("http")


def short_id(text: str, length: int = 10) -> str:
    """A deterministic id of lowercase letters and digits (``short_id('x')`` is stable across runs)."""
    digest = hashlib.sha1(text.encode()).digest()
    return base64.b32encode(digest).decode().lower().replace("=", "")[:length]


def arn(service: str, resource: str, region: str = REGION) -> str:
    return f"arn:{PARTITION}:{service}:{region}:{ACCOUNT_ID}:{resource}"


def lambda_arn(function_name: str) -> str:
    return arn("lambda", f"function:{function_name}")


_LAMBDA_ARN = re.compile(r"arn:aws:lambda:[^:]+:\d+:function:([A-Za-z0-9_-]+)")


def function_name_in(text: str) -> str | None:
    """The Lambda function named by an ARN inside ``text`` (an integration URI, a task resource).

    >>> function_name_in("arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/"
    ...                  "arn:aws:lambda:us-east-1:123456789012:function:api/invocations")
    'api'
    """
    match = _LAMBDA_ARN.search(text)
    return match.group(1) if match else None


_NAMED_ARNS: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("AWS::Lambda::Function", "Arn"): ("lambda", "function:{name}"),
    ("AWS::DynamoDB::Table", "Arn"): ("dynamodb", "table/{name}"),
    ("AWS::DynamoDB::GlobalTable", "Arn"): ("dynamodb", "table/{name}"),
    ("AWS::DynamoDB::Table", "StreamArn"): ("dynamodb", "table/{name}/stream/1970-01-01T00:00:00.000"),
    ("AWS::DynamoDB::GlobalTable", "StreamArn"): ("dynamodb", "table/{name}/stream/1970-01-01T00:00:00.000"),
    ("AWS::SQS::Queue", "Arn"): ("sqs", "{name}"),
    ("AWS::Scheduler::ScheduleGroup", "Arn"): ("scheduler", "schedule-group/{name}"),
    ("AWS::Scheduler::Schedule", "Arn"): ("scheduler", "schedule/default/{name}"),
    ("AWS::Events::Rule", "Arn"): ("events", "rule/{name}"),
    ("AWS::Logs::LogGroup", "Arn"): ("logs", "log-group:{name}:*"),
}
"""``Fn::GetAtt`` answers that are an ARN of the resource's name: (type, attribute) -> (service, resource)."""

_REF_ATTRIBUTES: Final = frozenset(
    {
        ("AWS::StepFunctions::StateMachine", "Arn"),
        ("AWS::Cognito::UserPoolClient", "ClientId"),
        ("AWS::SNS::Topic", "TopicArn"),
    }
)
"""``Fn::GetAtt`` answers that are the resource's ``Ref``."""

_NAME_ATTRIBUTES: Final = frozenset({("AWS::SQS::Queue", "QueueName"), ("AWS::StepFunctions::StateMachine", "Name")})
"""``Fn::GetAtt`` answers that are the resource's name."""


class Resolver:
    """Evaluates intrinsic functions against the local equivalents of a template's resources."""

    def __init__(self, template: Template, endpoints: LocalEndpoints) -> None:
        self.template = template
        self.endpoints = endpoints
        self._api_ids = {
            short_id(f"{template.stack_name}/{logical_id}"): props.get("ProtocolType", "HTTP")
            for logical_id, props in template.of_type("AWS::ApiGatewayV2::Api")
        }

    # ------------------------------------------------------------------ names

    def physical_name(self, logical_id: str) -> str:
        """The name CloudFormation would give (the ``*Name`` property, else ``{stack}-{logical id}``)."""
        resource = self.template.resources.get(logical_id)
        if resource is None:
            raise TemplateError(f"no resource {logical_id!r}")
        props = resource.get("Properties", {}) or {}
        rtype = resource.get("Type", "")
        key = _NAME_PROPERTY.get(rtype)
        if key and key in props:
            return str(self.resolve(props[key]))
        limit = _NAME_LIMIT.get(rtype, 128)
        name = f"{self.template.stack_name}-{logical_id}"
        if rtype == "AWS::SQS::Queue" and self._truthy(props.get("FifoQueue")):
            return name[: limit - 5] + ".fifo"
        return name[:limit]

    def api_id(self, logical_id: str) -> str:
        return short_id(f"{self.template.stack_name}/{logical_id}")

    def queue_url(self, logical_id: str) -> str:
        return f"{self.endpoints.moto_url}/{ACCOUNT_ID}/{self.physical_name(logical_id)}"

    def user_pool_id(self, logical_id: str) -> str:
        return f"{REGION}_{short_id(f'{self.template.stack_name}/{logical_id}', 9)}"

    def ref(self, logical_id: str) -> Any:
        pseudo = self._pseudo(logical_id)
        if pseudo is not None:
            return pseudo
        if logical_id in self.template.parameters:
            param = self.template.parameters[logical_id]
            return param.get("Default", "")
        rtype = self.template.type_of(logical_id)
        if not rtype:
            raise TemplateError(f"Ref to unknown {logical_id!r}")
        name = self.physical_name
        match rtype:
            case "AWS::SQS::Queue":
                return self.queue_url(logical_id)
            case "AWS::StepFunctions::StateMachine":
                return arn("states", f"stateMachine:{name(logical_id)}")
            case "AWS::SNS::Topic":
                return arn("sns", name(logical_id))
            case "AWS::Lambda::LayerVersion":
                return arn("lambda", f"layer:{name(logical_id)}:1")
            case "AWS::Lambda::Version":
                return arn("lambda", f"function:{name(logical_id)}:1")
            case "AWS::ApiGatewayV2::Api":
                return self.api_id(logical_id)
            case "AWS::ApiGatewayV2::Stage":
                props = self.template.resources[logical_id].get("Properties", {})
                return str(self.resolve(props.get("StageName", "$default")))
            case "AWS::ApiGatewayV2::Integration" | "AWS::ApiGatewayV2::Authorizer" | "AWS::ApiGatewayV2::Route":
                return short_id(f"{self.template.stack_name}/{logical_id}", 7)
            case "AWS::Cognito::UserPool":
                return self.user_pool_id(logical_id)
            case "AWS::Cognito::UserPoolClient":
                return short_id(f"{self.template.stack_name}/{logical_id}", 26)
            case "AWS::IAM::ManagedPolicy":
                return arn("iam", f"policy/{name(logical_id)}", region="")
            case _:
                return name(logical_id)

    def get_att(self, logical_id: str, attribute: str) -> Any:
        rtype = self.template.type_of(logical_id)
        if not rtype:
            raise TemplateError(f"Fn::GetAtt of unknown {logical_id!r}")
        name = self.physical_name(logical_id) if rtype in _NAME_LIMIT else logical_id
        if (rtype, attribute) in _NAMED_ARNS:
            service, resource = _NAMED_ARNS[rtype, attribute]
            return arn(service, resource.format(name=name))
        if (rtype, attribute) in _REF_ATTRIBUTES:
            return self.ref(logical_id)
        if (rtype, attribute) in _NAME_ATTRIBUTES:
            return name
        match rtype, attribute:
            case "AWS::SQS::Queue", "QueueUrl":
                return self.queue_url(logical_id)
            case "AWS::IAM::Role", "Arn":
                return arn("iam", f"role/{name}", region="")
            case "AWS::IAM::Role", "RoleId":
                return "AROA" + short_id(name, 16).upper()
            case "AWS::ApiGatewayV2::Api", "ApiEndpoint":
                protocol = self.template.resources[logical_id].get("Properties", {}).get("ProtocolType", "HTTP")
                return self.endpoints.ws_url if protocol == "WEBSOCKET" else self.endpoints.http_url
            case "AWS::ApiGatewayV2::Api", "ApiId":
                return self.api_id(logical_id)
            case "AWS::Cognito::UserPool", "ProviderURL":
                return f"https://cognito-idp.{REGION}.{URL_SUFFIX}/{self.user_pool_id(logical_id)}"
            case "AWS::Cognito::UserPool", "ProviderName":
                return f"cognito-idp.{REGION}.{URL_SUFFIX}/{self.user_pool_id(logical_id)}"
            case "AWS::Cognito::UserPool", "Arn":
                return arn("cognito-idp", f"userpool/{self.user_pool_id(logical_id)}")
            case "AWS::KMS::Key", "Arn":
                return arn("kms", f"key/{short_id(logical_id, 32)}")
            case _, "Arn":
                service = rtype.split("::")[1].lower() if "::" in rtype else "local"
                return arn(service, f"{logical_id}")
            case _:
                return f"{logical_id}.{attribute}"

    # ------------------------------------------------------------------ evaluation

    def resolve(self, value: Any) -> Any:
        """``value`` with every intrinsic function evaluated and API endpoints made local."""
        resolved = self._eval(value)
        return self._localize(resolved)

    def _eval(self, value: Any) -> Any:
        if isinstance(value, list):
            return [v for v in (self._eval(item) for item in value) if v is not _NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            ((key, arg),) = value.items()
            if key == "Ref":
                return _NO_VALUE if arg == "AWS::NoValue" else self.ref(arg)
            if key == "Condition" and isinstance(arg, str):
                return self.condition(arg)
            if key.startswith("Fn::"):
                return self._function(key, arg)
        out = {}
        for k, v in value.items():
            item = self._eval(v)
            if item is not _NO_VALUE:
                out[k] = item
        return out

    def _function(self, name: str, arg: Any) -> Any:
        match name:
            case "Fn::GetAtt":
                if isinstance(arg, str):
                    logical_id, _, attribute = arg.partition(".")
                else:
                    logical_id, attribute = arg[0], self._eval(arg[1])
                return self.get_att(logical_id, attribute)
            case "Fn::Join":
                separator, items = arg
                return str(separator).join(str(v) for v in self._eval(items))
            case "Fn::Sub":
                return self._sub(arg)
            case "Fn::Select":
                index, items = self._eval(arg)
                return items[int(index)]
            case "Fn::Split":
                separator, text = arg
                return str(self._eval(text)).split(separator)
            case "Fn::If":
                condition, when_true, when_false = arg
                return self._eval(when_true if self.condition(condition) else when_false)
            case "Fn::Equals":
                left, right = self._eval(arg)
                return left == right
            case "Fn::Not":
                return not self._truthy(self._eval(arg[0]))
            case "Fn::And":
                return all(self._truthy(v) for v in self._eval(arg))
            case "Fn::Or":
                return any(self._truthy(v) for v in self._eval(arg))
            case "Fn::FindInMap":
                map_name, top, second = self._eval(arg)
                return self.template.mappings[map_name][top][second]
            case "Fn::Base64":
                return base64.b64encode(str(self._eval(arg)).encode()).decode()
            case "Fn::GetAZs":
                return [f"{REGION}a", f"{REGION}b", f"{REGION}c"]
            case "Fn::ToJsonString":
                return json.dumps(self._eval(arg), separators=(",", ":"))
            case "Fn::ImportValue":
                raise TemplateError(f"Fn::ImportValue is not supported locally: {arg!r}")
            case _:
                raise TemplateError(f"unsupported intrinsic function {name}")

    def _sub(self, arg: Any) -> str:
        if isinstance(arg, list):
            text, variables = arg[0], {k: self._eval(v) for k, v in (arg[1] or {}).items()}
        else:
            text, variables = arg, {}

        def replace(match: re.Match[str]) -> str:
            expression = match.group(1)
            if expression.startswith("!"):
                return "${" + expression[1:] + "}"
            if expression in variables:
                return str(variables[expression])
            if "." in expression and self._pseudo(expression) is None:
                logical_id, _, attribute = expression.partition(".")
                return str(self.get_att(logical_id, attribute))
            return str(self.ref(expression))

        return re.sub(r"\$\{([^}]+)\}", replace, str(text))

    def condition(self, name: str) -> bool:
        if name not in self.template.conditions:
            raise TemplateError(f"unknown condition {name!r}")
        return self._truthy(self._eval(self.template.conditions[name]))

    @staticmethod
    def _truthy(value: Any) -> bool:
        if isinstance(value, str):
            return value.lower() == "true"
        return bool(value)

    def _pseudo(self, name: str) -> str | None:
        return {
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT_ID,
            "AWS::Partition": PARTITION,
            "AWS::URLSuffix": URL_SUFFIX,
            "AWS::StackName": self.template.stack_name,
            "AWS::StackId": arn("cloudformation", f"stack/{self.template.stack_name}/local"),
            "AWS::NotificationARNs": "",
        }.get(name)

    def _localize(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.localize_url(value)
        if isinstance(value, list):
            return [self._localize(v) for v in value]
        if isinstance(value, dict):
            return {k: self._localize(v) for k, v in value.items()}
        return value

    def localize_url(self, text: str) -> str:
        """API Gateway endpoints of the template's APIs, pointed at the runtime.

        ``https://{id}.execute-api.{region}.amazonaws.com/live`` becomes ``http://127.0.0.1:{port}/live``
        (``wss://`` becomes ``ws://``).
        """
        if "execute-api" not in text:
            return text
        for api_id in self._api_ids:
            pattern = re.compile(rf"(https|wss|http|ws)://{api_id}\.execute-api\.[a-z0-9-]+\.amazonaws\.com")

            def replace(match: re.Match[str]) -> str:
                scheme = match.group(1)
                return self.endpoints.ws_url if scheme in ("wss", "ws") else self.endpoints.http_url

            text = pattern.sub(replace, text)
        return text


_NAME_PROPERTY = {
    "AWS::DynamoDB::Table": "TableName",
    "AWS::DynamoDB::GlobalTable": "TableName",
    "AWS::SQS::Queue": "QueueName",
    "AWS::Lambda::Function": "FunctionName",
    "AWS::StepFunctions::StateMachine": "StateMachineName",
    "AWS::IAM::Role": "RoleName",
    "AWS::Scheduler::ScheduleGroup": "Name",
    "AWS::Scheduler::Schedule": "Name",
    "AWS::Events::Rule": "Name",
    "AWS::SNS::Topic": "TopicName",
    "AWS::Logs::LogGroup": "LogGroupName",
    "AWS::Lambda::LayerVersion": "LayerName",
    "AWS::IAM::ManagedPolicy": "ManagedPolicyName",
}

_NAME_LIMIT = {
    "AWS::DynamoDB::Table": 255,
    "AWS::DynamoDB::GlobalTable": 255,
    "AWS::SQS::Queue": 80,
    "AWS::Lambda::Function": 64,
    "AWS::StepFunctions::StateMachine": 80,
    "AWS::IAM::Role": 64,
    "AWS::Scheduler::ScheduleGroup": 64,
    "AWS::Scheduler::Schedule": 64,
    "AWS::Events::Rule": 64,
    "AWS::SNS::Topic": 256,
    "AWS::Logs::LogGroup": 512,
    "AWS::Lambda::LayerVersion": 140,
    "AWS::IAM::ManagedPolicy": 128,
}
