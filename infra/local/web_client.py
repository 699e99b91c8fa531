"""The web client on the local stack's HTTP port (docs/interfaces.md, 'Web client'), and its sign-in.

- ``GET /`` redirects (302) to ``/app/``;
- ``GET /app/...`` serves the files of ``web/`` (``/app/`` is ``index.html``),
  never a file outside it, a hidden one or a folder;
- ``GET /app/config.json`` is made per request: the stack's own HTTP and
  WebSocket URLs (as the browser reached them: the ``Host`` header when it is
  a well-formed ``host[:port]``, the stack's own address otherwise, so no
  header is ever copied into the file or the Content-Security-Policy) and
  ``auth.mode = "local"``;
- ``POST /local/token {player, operator?}`` answers ``{token}``, the JWT
  ``tourney local token`` prints. It exists only here, in the local runtime:
  in the cloud the user pool signs people in.

The gateway asks these routes only for requests no API route claims.

>>> client = WebClient(Path("web"), lambda player, operator: f"{player}:{operator}")
>>> client.file_for("/app/") == Path("web").resolve() / "index.html"
True
>>> client.file_for("/app/../pyproject.toml") is None
True
>>> client.file_for("/app/.hidden") is None
True
>>> client.file_for("/app/" + "a" * 5_000) is None  # longer than any file name
True
>>> client.origin_host('evil.example"; script-src *'), client.origin_host("localhost:8080")
('127.0.0.1', 'localhost:8080')
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

from infra.local.http_api import HttpAnswer

Mint = Callable[[str, bool], str]
"""A token the stack accepts: ``mint(player, operator)``."""

APP_PREFIX: Final = "/app/"
TOKEN_PATH: Final = "/local/token"
PLAYER_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""Names a local token may carry: what a path parameter takes without escaping (at most 64 characters)."""

CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}
_LABEL: Final = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST: Final = re.compile(
    rf"(?P<name>{_LABEL}(?:\.{_LABEL})*|\[[0-9A-Fa-f:.]{{2,45}}\])(?::(?P<port>[0-9]{{1,5}}))?", re.ASCII
)
_SECURITY_HEADERS: Final = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-cache"),
)


class WebClient:
    """The static files of ``root`` under ``/app/``, the generated ``config.json`` and the local token route."""

    def __init__(self, root: Path, mint: Mint, ws_path: str = "/", address: str = "127.0.0.1") -> None:
        self.root = Path(root).resolve()
        self.mint = mint
        self.ws_path = ws_path if ws_path.startswith("/") else f"/{ws_path}"
        self.address = address
        """The stack's own ``host:port``: what the page names when the request's ``Host`` is not a host."""

    def origin_host(self, host: str) -> str:
        """``host`` when it is a well-formed ``host[:port]``, else the stack's own address."""
        return host if is_host(host) else self.address

    def answer(self, method: str, path: str, host: str, body: bytes) -> HttpAnswer | None:
        """The answer for a request of the web client, or None when the path is not one of its."""
        if path == TOKEN_PATH:
            return self._token(body) if method == "POST" else _error(405, "method_not_allowed", "use POST")
        if path in ("/", "/app"):
            if method not in ("GET", "HEAD"):
                return None
            return HttpAnswer(302, [("Location", APP_PREFIX)], b"")
        if not path.startswith(APP_PREFIX):
            return None
        if method not in ("GET", "HEAD"):
            return _error(405, "method_not_allowed", "the web client's files are read with GET")
        host = self.origin_host(host)
        if path == APP_PREFIX + "config.json":
            return self._file_answer(self.config(host), CONTENT_TYPES[".json"], host)
        found = self.file_for(path)
        if found is None:
            return _error(404, "not_found", "no such file")
        content_type = CONTENT_TYPES.get(found.suffix.lower(), "application/octet-stream")
        return self._file_answer(found.read_bytes(), content_type, host)

    def file_for(self, path: str) -> Path | None:
        """The file of ``root`` a path under ``/app/`` names; None for anything else (``..``, hidden, a folder)."""
        relative = path[len(APP_PREFIX) :] if path.startswith(APP_PREFIX) else None
        if relative is None:
            return None
        parts = [p for p in relative.split("/") if p]
        if any(p.startswith(".") or "\\" in p or "\x00" in p for p in parts):
            return None
        try:
            candidate = (self.root.joinpath(*parts) if parts else self.root / "index.html").resolve()
            if not candidate.is_relative_to(self.root) or not candidate.is_file():
                return None  # a symbolic link out of the folder ends here too
        except (OSError, ValueError):  # a name longer than the file system takes, or one it cannot hold
            return None
        return candidate

    def config(self, host: str) -> bytes:
        """``config.json``: this stack's URLs as the browser reached it, and the local sign-in."""
        ws_path = "" if self.ws_path == "/" else self.ws_path
        return json.dumps({"api": f"http://{host}", "ws": f"ws://{host}{ws_path}", "auth": {"mode": "local"}}).encode()

    def _token(self, body: bytes) -> HttpAnswer:
        try:
            request = json.loads(body or b"null")
        except ValueError:
            return _error(400, "invalid_request", "the body is not JSON")
        if not isinstance(request, dict) or set(request) - {"player", "operator"}:
            return _error(400, "invalid_request", "the body is {player, operator?}")
        player, operator = request.get("player"), request.get("operator", False)
        if not isinstance(player, str) or not PLAYER_NAME.match(player):
            return _error(
                400,
                "invalid_request",
                "a name is 1 to 64 letters, digits, '.', '_' or '-', starting with one of the first two",
            )
        if not isinstance(operator, bool):
            return _error(400, "invalid_request", "operator is true or false")
        token = self.mint(player, operator)
        return HttpAnswer(200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                          json.dumps({"token": token}).encode())  # fmt: skip

    @staticmethod
    def _file_answer(content: bytes, content_type: str, host: str) -> HttpAnswer:
        headers = [("Content-Type", content_type), *_SECURITY_HEADERS]
        if content_type.startswith("text/html"):
            # no inline script or style anywhere: the page talks only to this stack (HTTP and its WebSocket)
            policy = f"default-src 'self'; connect-src 'self' ws://{host}; img-src 'self' data:; "
            policy += "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
            headers.append(("Content-Security-Policy", policy))
        return HttpAnswer(200, headers, content)  # aiohttp sends no body to a HEAD request


def is_host(host: str) -> bool:
    """Whether ``host`` is a well-formed ``host[:port]`` (a DNS name, an IPv4 or a bracketed IPv6 address)."""
    found = _HOST.fullmatch(host)
    if found is None or len(found.group("name")) > 253:
        return False
    port = found.group("port")
    return port is None or 0 < int(port) <= 65_535


def _error(status: int, code: str, message: str) -> HttpAnswer:
    return HttpAnswer(
        status, [("Content-Type", "application/json")], json.dumps({"error": code, "message": message}).encode()
    )
