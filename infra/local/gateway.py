"""One aiohttp server on 127.0.0.1 for both APIs and the ``@connections`` management API.

- ``/{stage}/@connections/{id}`` and ``/@connections/{id}``: POST sends the
  body to the connection, GET describes it, DELETE closes it; an unknown
  connection answers 410 ``GoneException`` (what boto3's
  ``apigatewaymanagementapi`` client raises);
- a WebSocket upgrade (any path): the WebSocket API;
- a URL over ``MAX_URL_BYTES``: 414 ``{"error": "uri_too_long", "message"}``;
- anything else: the HTTP API (and, when no route claims it,
  ``/.well-known/jwks.json`` with the runtime's public keys, and the web
  client at ``/app/`` with its local sign-in, ``infra/local/web_client.py``).

Handlers run in a thread pool, so the event loop stays free to serve the
``@connections`` calls they make while they run. One log line per request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from infra.local.http_api import (
    HttpAnswer,
    HttpApi,
    Unauthorized,
    authorize,
    gateway_error,
    http_answer,
    http_event,
)
from infra.local.jwt_keys import SigningKeys
from infra.local.lambdas import LocalFunction
from infra.local.sigv4 import signed_with
from infra.local.throttle import TOO_MANY_REQUESTS
from infra.local.web_client import Mint, WebClient, is_host
from infra.local.websocket_api import (
    ConnectionInfo,
    WebSocketApi,
    connect_event,
    disconnect_event,
    message_event,
    new_connection_id,
    route_reply,
)

log = logging.getLogger("infra.local")

_CONNECTIONS_PATH = re.compile(r"^(?:/(?P<stage>[^/@]+))?/@connections/(?P<id>[^/]+)/?$")
_MAX_PAYLOAD = 128 * 1024
MAX_URL_BYTES = 8 * 1024
"""The longest request URL (path and query, as sent) served; a longer one is a 414 before any route runs."""
_MAX_LINE = 64 * 1024  # what the server reads of a request line, so that a long URL gets the 414 above


def bind_socket(port: int = 0) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0: a free one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


class Gateway:
    """The HTTP and WebSocket APIs on one socket, served from a thread of its own."""

    def __init__(
        self,
        sock: socket.socket,
        http_apis: Sequence[HttpApi],
        websocket_apis: Sequence[WebSocketApi],
        keys: SigningKeys,
        workers: int = 64,
        connections_secret: str | None = None,
        web_root: Path | None = None,
        mint: Mint | None = None,
    ) -> None:
        self.sock = sock
        self.connections_secret = connections_secret  # None: @connections over HTTP unchecked
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.http_apis = list(http_apis)
        self.websocket_apis = list(websocket_apis)
        self.keys = keys
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="local-handler")
        self.connections: dict[str, tuple[web.WebSocketResponse, ConnectionInfo]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self.web_client: WebClient | None = None
        """The web client and its sign-in (``web_root`` and ``mint`` given): the local runtime only."""
        if web_root is not None and mint is not None and web_root.is_dir():
            self.web_client = WebClient(
                web_root,
                mint,
                ws_path=self.ws_url.removeprefix(self.url.replace("http", "ws")),
                address=f"127.0.0.1:{self.port}",
            )

    @property
    def ws_url(self) -> str:
        stage = self.websocket_apis[0].stage if self.websocket_apis else ""
        path = "" if stage in ("", "$default") else stage
        return f"ws://127.0.0.1:{self.port}/{path}"

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="local-gateway", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=30)
        if self._failure is not None:
            raise self._failure

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            app = web.Application(client_max_size=10 * 1024 * 1024)
            app.router.add_route("*", r"/{tail:[\s\S]*}", self._handle)  # any path, control characters too
            self._runner = web.AppRunner(
                app, access_log=None, handle_signals=False, shutdown_timeout=5.0, max_line_size=_MAX_LINE
            )
            loop.run_until_complete(self._runner.setup())
            loop.run_until_complete(web.SockSite(self._runner, self.sock).start())
        except BaseException as error:
            self._failure = error
            self._ready.set()
            return
        self._ready.set()
        loop.run_forever()
        loop.run_until_complete(self._shutdown())
        loop.close()

    async def _shutdown(self) -> None:
        for ws, _ in list(self.connections.values()):
            await ws.close(code=1001, message=b"going away")
        if self._runner is not None:
            await self._runner.cleanup()

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=30)
        self.executor.shutdown(wait=True, cancel_futures=True)
        self.sock.close()

    # ------------------------------------------------------------------ dispatch

    def _host(self, request: web.Request) -> str:
        """The request's ``Host`` when it is a well-formed ``host[:port]``, else this gateway's own address."""
        return request.host if is_host(request.host) else f"127.0.0.1:{self.port}"

    async def _invoke(self, function: LocalFunction, event: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, function.invoke, event)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        if len(request.rel_url.raw_path_qs) > MAX_URL_BYTES:
            _log_request(request.method, request.rel_url.raw_path[:80] + "...", 414, started)
            return web.json_response(
                {"error": "uri_too_long", "message": f"a URL is at most {MAX_URL_BYTES} bytes"}, status=414
            )
        management = _CONNECTIONS_PATH.match(request.path)
        if management:
            response = await self._management(request, management.group("id"))
            _log_request(request.method, request.path, response.status, started)
            return response
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await self._websocket(request)
        answer, target = await self._http(request)
        response = web.Response(status=answer.status, body=answer.body)
        for key, value in answer.headers:
            response.headers.add(key, value)
        _log_request(request.method, request.path_qs, answer.status, started, target)
        return response

    # ------------------------------------------------------------------ HTTP API

    async def _http(self, request: web.Request) -> tuple[HttpAnswer, str]:
        origin = request.headers.get("Origin")
        cors_api = next((a for a in self.http_apis if a.cors), None)
        if cors_api is not None and request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            return HttpAnswer(204, cors_api.cors_headers(origin, preflight=True), b""), "preflight"
        answer, target = await self._route(request)
        if cors_api is not None:
            extra = cors_api.cors_headers(origin, preflight=False)
            names = {k.lower() for k, _ in extra}
            headers = [(k, v) for k, v in answer.headers if k.lower() not in names] + extra
            answer = HttpAnswer(answer.status, headers, answer.body)
        return answer, target

    async def _route(self, request: web.Request) -> tuple[HttpAnswer, str]:
        body = await request.read()
        found = None
        api = None
        for api in self.http_apis:
            found = api.find(request.method, request.path)
            if found:
                break
        if found is None or api is None:
            if request.method == "GET" and request.path == "/.well-known/jwks.json":
                return HttpAnswer(
                    200, [("Content-Type", "application/json")], json.dumps(self.keys.jwks()).encode()
                ), ""
            if self.web_client is not None:
                web_answer = self.web_client.answer(request.method, request.path, request.host, body)
                if web_answer is not None:
                    return web_answer, "-> web client"
            return gateway_error(404, "Not Found"), ""
        route, params = found
        if api.throttle is not None and not api.throttle.take():
            return gateway_error(429, TOO_MANY_REQUESTS), route.route_key
        if route.function is None:
            return gateway_error(500, "Internal Server Error"), route.route_key
        headers: dict[str, str] = {}
        for key, value in request.headers.items():
            key = key.lower()
            headers[key] = f"{headers[key]},{value}" if key in headers else value
        try:
            authorizer = authorize(route, headers, self.keys)
        except Unauthorized as refusal:
            return gateway_error(refusal.status, "Unauthorized" if refusal.status == 401 else "Forbidden"), ""
        event = http_event(
            route,
            api,
            method=request.method,
            raw_path=request.path,  # decoded, as the HTTP API delivers it (its path parameters too)
            raw_query=request.rel_url.raw_query_string,
            headers=headers,
            body=body,
            path_parameters=params,
            authorizer=authorizer,
            host=self._host(request),
            source_ip=request.remote or "127.0.0.1",
        )
        target = f"-> {route.function.name}"
        try:
            result = await self._invoke(route.function, event)
        except Exception:
            log.error("%s failed on %s (its error record: infra.local.failures)", route.function.name, route.route_key)
            return gateway_error(500, "Internal Server Error"), target
        try:
            return http_answer(result), target
        except (TypeError, ValueError):
            log.exception("%s answered something API Gateway cannot use", route.function.name)
            return gateway_error(500, "Internal Server Error"), target

    # ------------------------------------------------------------------ WebSocket API

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        started = time.monotonic()
        if not self.websocket_apis:
            return web.json_response({"message": "Not Found"}, status=404)
        api = self.websocket_apis[0]
        info = ConnectionInfo(new_connection_id(), request.remote or "127.0.0.1", request.headers.get("User-Agent", ""))
        host = self._host(request)
        connect = api.routes.get("$connect")
        protocols: tuple[str, ...] = ()
        if connect is not None and connect.function is not None:
            headers: dict[str, list[str]] = {}
            for key, value in request.headers.items():
                headers.setdefault(key, []).append(value)
            query: dict[str, list[str]] = {}
            for key, value in request.rel_url.query.items():
                query.setdefault(key, []).append(value)
            try:
                result = await self._invoke(connect.function, connect_event(api, info, headers, query, host))
            except Exception:
                log.error("%s failed on $connect (its error record: infra.local.failures)", connect.function.name)
                _log_request("WS", "$connect", 500, started, connect.function.name)
                return web.json_response({"message": "Internal server error"}, status=500)
            status = int(result.get("statusCode", 200)) if isinstance(result, dict) else 200
            if not 200 <= status < 300:
                _log_request("WS", "$connect", status, started, connect.function.name)
                body = result.get("body", "") if isinstance(result, dict) else ""
                return web.Response(status=status, text=str(body or ""))
            # a subprotocol the client asked for is accepted only if $connect answers it back
            answered = {
                str(k).lower(): str(v)
                for k, v in ((result if isinstance(result, dict) else {}).get("headers") or {}).items()
            }
            if "sec-websocket-protocol" in answered:
                protocols = (answered["sec-websocket-protocol"],)
        ws = web.WebSocketResponse(max_msg_size=_MAX_PAYLOAD * 8, protocols=protocols)
        await ws.prepare(request)
        self.connections[info.connection_id] = (ws, info)
        _log_request("WS", f"$connect {info.connection_id}", 101, started)
        try:
            async for message in ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                text = (
                    str(message.data)
                    if message.type == WSMsgType.TEXT
                    else bytes(message.data).decode("utf-8", "replace")
                )
                try:
                    await self._message(api, ws, info, text, host)
                except Exception:  # a message the gateway cannot handle never drops the connection
                    log.exception("message on %s not handled", info.connection_id)
                    if not ws.closed:
                        await ws.send_str(json.dumps(_ws_error("Internal server error", info)))
        finally:
            self.connections.pop(info.connection_id, None)
            disconnect = api.routes.get("$disconnect")
            if disconnect is not None and disconnect.function is not None:
                begun = time.monotonic()
                event = disconnect_event(api, info, host, ws.close_code or 1005, "")
                try:
                    await self._invoke(disconnect.function, event)
                    _log_request("WS", f"$disconnect {info.connection_id}", 200, begun, disconnect.function.name)
                except Exception:
                    log.error(
                        "%s failed on $disconnect (its error record: infra.local.failures)", disconnect.function.name
                    )
        return ws

    async def _message(
        self, api: WebSocketApi, ws: web.WebSocketResponse, info: ConnectionInfo, body: str, host: str
    ) -> None:
        started = time.monotonic()
        info.last_active_at = time.time()
        if api.throttle is not None and not api.throttle.take():
            await ws.send_str(json.dumps(_ws_error(TOO_MANY_REQUESTS, info)))
            _log_request("WS", f"message {info.connection_id}", 429, started)
            return
        route = api.select(body)
        if route is None or route.function is None:
            await ws.send_str(json.dumps(_ws_error("Forbidden", info)))
            _log_request("WS", f"message {info.connection_id}", 403, started)
            return
        event = message_event(api, info, route.route_key, body, host)
        try:
            result = await self._invoke(route.function, event)
        except Exception:
            log.error("%s failed on %s (its error record: infra.local.failures)", route.function.name, route.route_key)
            if not ws.closed:
                await ws.send_str(json.dumps(_ws_error("Internal server error", info)))
            _log_request("WS", f"{route.route_key} {info.connection_id}", 500, started, route.function.name)
            return
        if route.two_way and not ws.closed:
            reply = route_reply(result)
            if reply is not None:
                await ws.send_str(reply)
        _log_request("WS", f"{route.route_key} {info.connection_id}", 200, started, route.function.name)

    # ------------------------------------------------------------------ @connections

    async def _management(self, request: web.Request, connection_id: str) -> web.Response:
        data = await request.read() if request.method == "POST" else b""
        if self.connections_secret is not None and not signed_with(
            self.connections_secret, request.method, f"http://{request.host}{request.rel_url.raw_path_qs}",
            dict(request.headers), data,
        ):  # fmt: skip
            # as API Gateway answers a request not signed by a principal that may manage connections
            status, headers, body = _management_error(403, "ForbiddenException", "Forbidden")
            return web.Response(status=status, body=body, headers=headers)
        status, headers, body = await self._manage(request.method, connection_id, data)
        return web.Response(status=status, body=body, headers=headers)

    def deliver(self, method: str, path: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
        """A ``@connections`` call made in this process (an in-process handler's), without HTTP.

        Raises ``LookupError`` when it must go over HTTP instead (not a ``@connections`` path, the
        gateway not serving, or the caller is the gateway's own event loop).
        """
        match = _CONNECTIONS_PATH.match(path)
        loop = self._loop
        if match is None or loop is None or not loop.is_running() or threading.current_thread() is self._thread:
            raise LookupError(path)
        started = time.monotonic()
        future = asyncio.run_coroutine_threadsafe(self._manage(method, match.group("id"), data), loop)
        answer = future.result(timeout=30)
        _log_request(method, path, answer[0], started)
        return answer

    async def _manage(self, method: str, connection_id: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
        entry = self.connections.get(connection_id)
        if entry is None:
            return _gone(connection_id)
        ws, info = entry
        if method == "POST":
            if len(data) > _MAX_PAYLOAD:
                return _management_error(413, "PayloadTooLargeException", "the message is over 128 KB")
            try:
                try:
                    await ws.send_str(data.decode("utf-8"))
                except UnicodeDecodeError:
                    await ws.send_bytes(data)
            except (ConnectionError, RuntimeError):
                return _gone(connection_id)
            info.last_active_at = time.time()
            return 200, {}, b""
        if method == "GET":
            return 200, {"Content-Type": "application/json"}, json.dumps(info.describe()).encode()
        if method == "DELETE":
            await ws.close(code=1000, message=b"closed by the server")
            return 204, {}, b""
        return _management_error(405, "MethodNotAllowed", "use POST, GET or DELETE")


def _ws_error(message: str, info: ConnectionInfo) -> dict[str, str]:
    return {"message": message, "connectionId": info.connection_id, "requestId": uuid.uuid4().hex[:16] + "="}


def _management_error(status: int, error_type: str, message: str) -> tuple[int, dict[str, str], bytes]:
    headers = {"Content-Type": "application/json", "x-amzn-ErrorType": error_type}
    return status, headers, json.dumps({"message": message}).encode()


def _gone(connection_id: str) -> tuple[int, dict[str, str], bytes]:
    return _management_error(410, "GoneException", f"connection {connection_id} is gone")


def _log_request(method: str, path: str, status: int, started: float, target: str | None = None) -> None:
    elapsed = (time.monotonic() - started) * 1000
    suffix = f" {target}" if target else ""
    log.info("%s %s %d %.1f ms%s", method, path, status, elapsed, suffix)
