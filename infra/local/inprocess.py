"""Calls from the in-process handlers to the local AWS, served without a socket.

Every AWS call a handler makes goes through botocore's HTTP session. Locally
its target is in the same process: the moto server's WSGI application, or the
gateway's ``@connections`` API. ``InProcessTransport`` patches
``botocore.httpsession.URLLib3Session.send`` so that a request to the moto
server's URL is handed to its WSGI application directly, and a request to the
gateway's ``/@connections/{id}`` is handed to the gateway's event loop; any
other URL goes over the network as before. The requests are the same ones
(signed, serialized, parsed by botocore); only the socket, the HTTP parsing
and the thread per request of the development servers are skipped. Clients
outside the process (``tourney local up``'s users) still reach both servers
over HTTP.

moto's dispatcher works out the service of every request again (reading its
service list from disk); the application of a signing service and region is
kept once found.

botocore reads its JSON models (the service's, ``endpoints.json``) once per
session, and PynamoDB keeps a session per thread: each of the gateway's handler
threads, pollers and workflow threads parsed them again for its first client
(about 7 % of the process's time under the demo). While installed, the files
read are kept for the process (``SharedModels``): they are read-only data.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urlsplit

from botocore.awsrequest import AWSResponse
from botocore.httpsession import URLLib3Session

_DYNAMODB_LOCK = threading.Lock()
"""moto's DynamoDB is not thread-safe (a transaction copies a table another thread is writing): one request at
a time, as DynamoDB never interleaves a condition check and its write with another writer's. Only DynamoDB: a
Step Functions request runs Lambda tasks that call back into moto."""

Deliver = Callable[[str, str, bytes], tuple[int, dict[str, str], bytes]]
"""The gateway's ``@connections`` API: (method, path, body) -> (status, headers, body), or raises LookupError."""


class _RawBody:
    """What botocore reads a response body from (``stream()``, ``read()``)."""

    def __init__(self, body: bytes) -> None:
        self._body = body
        self._read = False

    def read(self, *_: Any, **__: Any) -> bytes:
        if self._read:
            return b""
        self._read = True
        return self._body

    def stream(self, **_: Any) -> Any:
        data = self.read()
        if data:
            yield data

    def close(self) -> None:
        return None


def _text(value: Any) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _body(request: Any) -> bytes:
    body = request.body
    if body is None:
        return b""
    if isinstance(body, bytes | bytearray):
        return bytes(body)
    if isinstance(body, str):
        return body.encode("utf-8")
    if hasattr(body, "read"):
        data = body.read()
        if hasattr(body, "seek"):
            body.seek(0)
        return data if isinstance(data, bytes) else str(data).encode("utf-8")
    return bytes(body)


def _signing_key(headers: dict[str, str]) -> str | None:
    """``dynamodb/us-east-1`` from ``Credential=.../20260101/us-east-1/dynamodb/aws4_request``."""
    authorization = headers.get("Authorization") or headers.get("authorization") or ""
    marker = "Credential="
    at = authorization.find(marker)
    if at < 0:
        return None
    scope = authorization[at + len(marker) :].split(",", 1)[0].split("/")
    if len(scope) < 5:
        return None
    return f"{scope[3]}/{scope[2]}/{headers.get('X-Amz-Target', '').split('.', 1)[0]}"


class SharedModels:
    """botocore's loaders share what they read (the service models, endpoints and partitions) in this process."""

    _CACHED = ("load_data_with_path", "list_api_versions", "list_available_services")

    def __init__(self) -> None:
        self._originals: dict[str, Any] = {}
        self._lock = threading.Lock()

    def install(self) -> None:
        from botocore.loaders import Loader

        if self._originals:
            return
        cache: dict[tuple[Any, ...], Any] = {}
        lock = self._lock
        for name in self._CACHED:
            original = getattr(Loader, name)
            self._originals[name] = original

            def shared(loader: Any, *args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
                key = (_name, tuple(loader.search_paths), args, tuple(sorted(kwargs.items())))
                found = cache.get(key)
                if found is None:
                    found = _original(loader, *args, **kwargs)
                    with lock:
                        cache.setdefault(key, found)
                return found

            setattr(Loader, name, shared)

    def remove(self) -> None:
        from botocore.loaders import Loader

        for name, original in self._originals.items():
            setattr(Loader, name, original)
        self._originals.clear()


class InProcessTransport:
    """Serve botocore requests to the moto server and to ``@connections`` in-process (install/remove)."""

    def __init__(self, moto_url: str, moto_app: Any, gateway_url: str, deliver: Deliver | None) -> None:
        self.moto_url = moto_url.rstrip("/")
        self.moto_app = moto_app
        self.gateway_url = gateway_url.rstrip("/")
        self.deliver = deliver
        self._original: Any = None
        self._apps: dict[str, Any] = {}
        self._models = SharedModels()

    def install(self) -> None:
        if self._original is not None:
            return
        original = URLLib3Session.send
        transport = self

        def send(session: Any, request: Any) -> Any:
            answer = transport.handle(request)
            if answer is not None:
                return answer
            return original(session, request)

        self._original = original
        URLLib3Session.send = send
        self._models.install()
        if self.moto_app is not None and hasattr(self.moto_app, "get_application"):
            self._patch_dispatcher()

    def remove(self) -> None:
        self._models.remove()
        if self._original is not None:
            URLLib3Session.send = self._original
            self._original = None
        if self.moto_app is not None:
            self.moto_app.__dict__.pop("get_application", None)

    def _patch_dispatcher(self) -> None:
        app = self.moto_app
        find = type(app).get_application
        apps = self._apps

        def get_application(environ: dict[str, Any]) -> Any:
            headers = {
                "Authorization": environ.get("HTTP_AUTHORIZATION", ""),
                "X-Amz-Target": environ.get("HTTP_X_AMZ_TARGET", ""),
            }
            key = _signing_key(headers) if not environ.get("PATH_INFO", "").startswith("/moto-api") else None
            if key is not None and key in apps:
                return apps[key]
            found = find(app, environ)
            if key is not None:
                apps[key] = found
            return found

        app.get_application = get_application

    # ------------------------------------------------------------------ dispatch

    def handle(self, request: Any) -> AWSResponse | None:
        url = str(request.url)
        if self.moto_app is not None and (url == self.moto_url or url.startswith(self.moto_url + "/")):
            return self._moto(request, url)
        if self.deliver is not None and url.startswith(self.gateway_url + "/") and "/@connections/" in url:
            parts = urlsplit(url)
            try:
                status, headers, body = self.deliver(str(request.method), unquote(parts.path), _body(request))
            except LookupError:
                return None
            return AWSResponse(url, status, headers, _RawBody(body))
        return None

    def _moto(self, request: Any, url: str) -> AWSResponse:
        from werkzeug.test import EnvironBuilder, run_wsgi_app

        parts = urlsplit(url)
        headers = {_text(k): _text(v) for k, v in request.headers.items()}
        builder = EnvironBuilder(
            path=parts.path or "/",
            query_string=parts.query,
            method=str(request.method),
            headers=list(headers.items()),
            data=_body(request),
            base_url=f"{parts.scheme}://{parts.netloc}",
        )
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        serial = _DYNAMODB_LOCK if (_signing_key(headers) or "").startswith("dynamodb/") else contextlib.nullcontext()
        with serial:
            app_iter, status, response_headers = run_wsgi_app(self.moto_app, environ, buffered=True)
            try:
                body = b"".join(app_iter)
            finally:
                close = getattr(app_iter, "close", None)
                if close is not None:
                    close()
        code = int(status.split(" ", 1)[0])
        return AWSResponse(url, code, dict(response_headers.items()), _RawBody(body))
