"""The HTTP API of the template: routes, the JWT authorizer, payload format 2.0.

Routes and integrations come from the template's ``AWS::ApiGatewayV2::Route``
and ``Integration`` resources of each API whose ``ProtocolType`` is ``HTTP``.
A request is matched the way API Gateway does it (the most specific route
wins: literal segments over ``{param}`` over ``{proxy+}``, a method over
``ANY``, ``$default`` last), checked by the route's JWT authorizer (issuer,
audience, expiry, signature: 401 ``{"message": "Unauthorized"}`` without a valid
token) and turned into the version 2.0 event; the handler's answer is turned
back into a response as API Gateway does. As the HTTP API does, the event's
``rawPath`` and ``pathParameters`` are percent-decoded (``/players/ann%2Emarie``
reaches the function as ``/players/ann.marie``).

>>> route = HttpRoute.parse("GET /tournaments/{id}/tables/{table}", function=None)
>>> route.match("GET", "/tournaments/t1/tables/7")
{'id': 't1', 'table': '7'}
>>> route.match("POST", "/tournaments/t1/tables/7") is None
True
"""

from __future__ import annotations

import base64
import json
import re
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import jwt

from infra.local.jwt_keys import SigningKeys
from infra.local.lambdas import FunctionRegistry, LocalFunction
from infra.local.template import ACCOUNT_ID, Resolver, Template, function_name_in
from infra.local.throttle import TokenBucket, stage_throttle

_TEXT_TYPES = ("text/", "application/json", "application/xml", "application/javascript", "+json", "+xml")


@dataclass(frozen=True)
class JwtAuthorizer:
    """An ``AWS::ApiGatewayV2::Authorizer`` of type JWT."""

    issuer: str
    audiences: tuple[str, ...]
    identity_source: str = "$request.header.Authorization"


@dataclass
class HttpRoute:
    """One route: its key, the function of its integration, its authorizer and scopes."""

    route_key: str
    function: LocalFunction | None
    authorizer: JwtAuthorizer | None = None
    scopes: tuple[str, ...] = ()
    method: str = ""
    path: str = ""
    _pattern: re.Pattern[str] | None = field(default=None, repr=False)
    _rank: tuple[int, int, int] = (0, 0, 0)

    @classmethod
    def parse(
        cls,
        route_key: str,
        function: LocalFunction | None,
        authorizer: JwtAuthorizer | None = None,
        scopes: tuple[str, ...] = (),
    ) -> HttpRoute:
        route = cls(route_key, function, authorizer, scopes)
        if route_key == "$default":
            route._rank = (3, 0, 1)
            return route
        method, _, path = route_key.partition(" ")
        route.method, route.path = method.upper(), path
        parts = []
        literal = 0
        greedy = 0
        for segment in path.strip("/").split("/") if path.strip("/") else []:
            greedy_param = re.fullmatch(r"\{([A-Za-z0-9_]+)\+\}", segment)
            param = re.fullmatch(r"\{([A-Za-z0-9_]+)\}", segment)
            if greedy_param:
                parts.append(f"(?P<{greedy_param.group(1)}>.+)")
                greedy = 1
            elif param:
                parts.append(f"(?P<{param.group(1)}>[^/]+)")
            else:
                parts.append(re.escape(segment))
                literal += 1
        route._pattern = re.compile("^/" + "/".join(parts) + "/?$")
        route._rank = (greedy, -literal, 1 if route.method == "ANY" else 0)
        return route

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if self.route_key == "$default":
            return {}
        if self.method not in ("ANY", method.upper()) or self._pattern is None:
            return None
        found = self._pattern.match(path)
        return dict(found.groupdict()) if found else None


@dataclass
class HttpApi:
    """The routes of one HTTP API, most specific first."""

    api_id: str
    stage: str = "$default"
    routes: list[HttpRoute] = field(default_factory=list)
    cors: dict[str, Any] | None = None  # the API's CorsConfiguration
    throttle: TokenBucket | None = None  # the stage's DefaultRouteSettings

    def allowed_origin(self, origin: str | None) -> str | None:
        """The ``access-control-allow-origin`` for a request from ``origin`` (``None``: no CORS headers)."""
        if not self.cors or not origin:
            return None
        origins = [str(o) for o in self.cors.get("AllowOrigins") or ()]
        if "*" in origins:
            return "*"
        return origin if origin in origins else None

    def cors_headers(self, origin: str | None, preflight: bool) -> list[tuple[str, str]]:
        """What API Gateway adds for CORS: to every answer, and to the preflight it answers itself."""
        allowed = self.allowed_origin(origin)
        if allowed is None or self.cors is None:
            return []
        headers = [("Access-Control-Allow-Origin", allowed)]
        if self.cors.get("AllowCredentials"):
            headers.append(("Access-Control-Allow-Credentials", "true"))
        if preflight:
            for key, header in (("AllowMethods", "Methods"), ("AllowHeaders", "Headers")):
                if self.cors.get(key):
                    headers.append((f"Access-Control-Allow-{header}", ",".join(str(v) for v in self.cors[key])))
            if self.cors.get("MaxAge") is not None:
                headers.append(("Access-Control-Max-Age", str(self.cors["MaxAge"])))
        elif self.cors.get("ExposeHeaders"):
            headers.append(("Access-Control-Expose-Headers", ",".join(str(v) for v in self.cors["ExposeHeaders"])))
        return headers

    def find(self, method: str, path: str) -> tuple[HttpRoute, dict[str, str]] | None:
        if self.stage != "$default" and (path == f"/{self.stage}" or path.startswith(f"/{self.stage}/")):
            path = path[len(self.stage) + 1 :] or "/"
        for route in sorted(self.routes, key=lambda r: r._rank):
            params = route.match(method, path)
            if params is not None:
                return route, params
        return None


def read_http_apis(template: Template, resolver: Resolver, functions: FunctionRegistry) -> list[HttpApi]:
    """Every HTTP API of the template with its routes."""
    return _read_apis(template, resolver, functions, "HTTP")


def _read_apis(template: Template, resolver: Resolver, functions: FunctionRegistry, protocol: str) -> list[Any]:
    from infra.local.websocket_api import WebSocketApi, WebSocketRoute

    apis: dict[str, Any] = {}
    for logical_id, props in template.of_type("AWS::ApiGatewayV2::Api"):
        if props.get("ProtocolType", "HTTP") != protocol:
            continue
        api_id = resolver.api_id(logical_id)
        if protocol == "HTTP":
            cors = resolver.resolve(props.get("CorsConfiguration")) if props.get("CorsConfiguration") else None
            apis[api_id] = HttpApi(api_id, cors=cors)
        else:
            selection = str(props.get("RouteSelectionExpression", "$request.body.action"))
            apis[api_id] = WebSocketApi(api_id, selection_expression=selection)
    for _, props in template.of_type("AWS::ApiGatewayV2::Stage"):
        api_id = resolver.resolve(props.get("ApiId"))
        if api_id in apis:
            stage = str(resolver.resolve(props.get("StageName", "$default")))
            if stage != "$default" or not apis[api_id].stage:
                apis[api_id].stage = stage
            apis[api_id].throttle = stage_throttle(resolver.resolve(props))
    integrations = {}
    for logical_id, props in template.of_type("AWS::ApiGatewayV2::Integration"):
        uri = str(resolver.resolve(props.get("IntegrationUri", "")))
        name = function_name_in(uri) or uri
        integrations[resolver.ref(logical_id)] = functions.lookup(name) if name else None
    authorizers = {}
    for logical_id, props in template.of_type("AWS::ApiGatewayV2::Authorizer"):
        if props.get("AuthorizerType") == "JWT":
            config = resolver.resolve(props.get("JwtConfiguration") or {})
            sources = resolver.resolve(props.get("IdentitySource") or ["$request.header.Authorization"])
            authorizers[resolver.ref(logical_id)] = JwtAuthorizer(
                str(config.get("Issuer", "")),
                tuple(str(a) for a in config.get("Audience", ()) or ()),
                str(sources[0]) if sources else "$request.header.Authorization",
            )
    two_way = {
        resolver.resolve(props.get("RouteId")) for _, props in template.of_type("AWS::ApiGatewayV2::RouteResponse")
    }
    for logical_id, raw in template.of_type("AWS::ApiGatewayV2::Route"):
        props = resolver.resolve(raw)
        api = apis.get(props.get("ApiId"))
        if api is None:
            continue
        target = str(props.get("Target", ""))
        function = integrations.get(target.removeprefix("integrations/"))
        if protocol == "HTTP":
            authorizer = None
            if props.get("AuthorizationType") == "JWT":
                authorizer = authorizers.get(props.get("AuthorizerId"))
            scopes = tuple(props.get("AuthorizationScopes") or ())
            api.routes.append(HttpRoute.parse(str(props["RouteKey"]), function, authorizer, scopes))
        else:
            responds = bool(props.get("RouteResponseSelectionExpression")) or resolver.ref(logical_id) in two_way
            api.routes[str(props["RouteKey"])] = WebSocketRoute(str(props["RouteKey"]), function, responds)
    return list(apis.values())


class Unauthorized(Exception):
    """No valid token (401); ``Forbidden`` when the scopes do not match (403)."""

    status = 401


class Forbidden(Unauthorized):
    status = 403


def authorize(route: HttpRoute, headers: Mapping[str, str], keys: SigningKeys) -> dict[str, Any] | None:
    """The ``requestContext.authorizer`` of a request to ``route`` (``None`` without an authorizer)."""
    authorizer = route.authorizer
    if authorizer is None:
        return None
    header = authorizer.identity_source.rsplit(".", 1)[-1].lower()
    value = headers.get(header, "")
    token = value[7:].strip() if value[:7].lower() == "bearer " else value.strip()
    if not token:
        raise Unauthorized("no token")
    try:
        claims = keys.verify(token, authorizer.issuer, authorizer.audiences)
    except jwt.PyJWTError as error:
        raise Unauthorized(str(error)) from error
    scopes = str(claims.get("scope", "")).split() if claims.get("scope") else None
    if route.scopes and not set(route.scopes) & set(scopes or ()):
        raise Forbidden("scopes")
    return {"jwt": {"claims": {k: _claim_text(v) for k, v in claims.items()}, "scopes": scopes}}


def _claim_text(value: Any) -> str:
    """How API Gateway passes a claim: text; a list as ``[a b]``."""
    if isinstance(value, list):
        return "[" + " ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def is_text(content_type: str) -> bool:
    content_type = content_type.lower()
    return any(kind in content_type for kind in _TEXT_TYPES) or "x-www-form-urlencoded" in content_type


def http_event(
    route: HttpRoute,
    api: HttpApi,
    *,
    method: str,
    raw_path: str,
    raw_query: str,
    headers: Mapping[str, str],
    body: bytes,
    path_parameters: Mapping[str, str],
    authorizer: dict[str, Any] | None,
    host: str,
    source_ip: str,
) -> dict[str, Any]:
    """The API Gateway payload format 2.0 event."""
    now = time.time()
    lowered = {k.lower(): v for k, v in headers.items()}
    cookies = lowered.pop("cookie", None)
    query: dict[str, str] = {}
    for key, value in parse_qsl(raw_query, keep_blank_values=True):
        query[key] = f"{query[key]},{value}" if key in query else value
    event: dict[str, Any] = {
        "version": "2.0",
        "routeKey": route.route_key,
        "rawPath": raw_path,
        "rawQueryString": raw_query,
        "headers": lowered,
        "requestContext": {
            "accountId": ACCOUNT_ID,
            "apiId": api.api_id,
            "domainName": host,
            "domainPrefix": host.split(".")[0],
            "http": {
                "method": method,
                "path": raw_path,
                "protocol": "HTTP/1.1",
                "sourceIp": source_ip,
                "userAgent": lowered.get("user-agent", ""),
            },
            "requestId": uuid.uuid4().hex[:16] + "=",
            "routeKey": route.route_key,
            "stage": api.stage,
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": False,
    }
    if cookies:
        event["cookies"] = [c.strip() for c in cookies.split(";") if c.strip()]
    if query:
        event["queryStringParameters"] = query
    if path_parameters:
        event["pathParameters"] = dict(path_parameters)
    if authorizer is not None:
        event["requestContext"]["authorizer"] = authorizer
    if body:
        if is_text(lowered.get("content-type", "application/json")):
            event["body"] = body.decode("utf-8", errors="replace")
        else:
            event["body"] = base64.b64encode(body).decode()
            event["isBase64Encoded"] = True
    return event


@dataclass(frozen=True)
class HttpAnswer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def http_answer(result: Any) -> HttpAnswer:
    """The response API Gateway makes of a payload 2.0 handler's return value."""
    if isinstance(result, dict) and "statusCode" in result:
        headers = [(str(k), str(v)) for k, v in (result.get("headers") or {}).items()]
        for key, values in (result.get("multiValueHeaders") or {}).items():
            headers.extend((str(key), str(v)) for v in values)
        headers.extend(("Set-Cookie", str(c)) for c in result.get("cookies") or ())
        body = result.get("body")
        if body is None:
            raw = b""
        elif result.get("isBase64Encoded"):
            raw = base64.b64decode(body)
        else:
            raw = str(body).encode()
        if not any(k.lower() == "content-type" for k, _ in headers) and raw:
            headers.append(("Content-Type", "application/json"))
        return HttpAnswer(int(result["statusCode"]), headers, raw)
    raw = result.encode() if isinstance(result, str) else json.dumps(result).encode()
    return HttpAnswer(200, [("Content-Type", "application/json")], raw)


def gateway_error(status: int, message: str) -> HttpAnswer:
    """API Gateway's own error answers (``{"message": ...}``)."""
    headers = [("Content-Type", "application/json")]
    if status == 401:
        headers.append(("www-authenticate", 'Bearer scope="" error="invalid_token" error_description="unauthorized"'))
    return HttpAnswer(status, headers, json.dumps({"message": message}).encode())
