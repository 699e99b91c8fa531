"""Who is calling: the player id and the operator flag (docs/interfaces.md, 'HTTP API').

HTTP: API Gateway's JWT authorizer has already checked the token; its claims
arrive in ``requestContext.authorizer.jwt.claims``. The player id is ``sub``
(else ``username``); the caller is an operator when ``cognito:groups``
contains the operators group. API Gateway passes a list claim as the text
``"[operators players]"``; a JSON list or a real list is accepted too.

WebSocket: API Gateway cannot put a JWT authorizer on ``$connect``, so
:func:`verify_token` checks ``?token=`` itself with PyJWT, against the JWKS,
issuer and audience of the settings (``JWT_JWKS_URL`` may be ``file://`` for
the local stack and tests).

>>> caller_from_claims({"sub": "ann", "cognito:groups": "[players operators]"})
Caller(player_id='ann', operator=True)
>>> caller_from_claims({"username": "bob"})
Caller(player_id='bob', operator=False)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tourney.entrypoints.errors import Forbidden, Unauthorized
from tourney.entrypoints.settings import Settings, settings

if TYPE_CHECKING:
    from jwt import PyJWKClient

__all__ = ["Caller", "caller_from_claims", "http_caller", "verify_token"]

_JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384"]


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated caller."""

    player_id: str
    operator: bool = False

    def require_operator(self) -> Caller:
        if not self.operator:
            raise Forbidden("operators only")
        return self


def _groups(claim: Any) -> set[str]:
    if claim is None:
        return set()
    if isinstance(claim, list | tuple | set):
        return {str(group) for group in claim}
    text = str(claim).strip()
    if text.startswith("[") and '"' in text:
        try:
            return {str(group) for group in json.loads(text)}
        except ValueError:
            pass
    return {group for group in text.strip("[]").replace(",", " ").split() if group}


def caller_from_claims(claims: Mapping[str, Any], operators_group: str | None = None) -> Caller:
    """The caller named by a token's claims; ``Unauthorized`` when they name nobody."""
    player_id = claims.get("sub") or claims.get("username")
    if not isinstance(player_id, str) or not player_id:
        raise Unauthorized("the token names no player")
    group = operators_group or settings().operators_group
    return Caller(player_id=player_id, operator=group in _groups(claims.get("cognito:groups")))


def http_caller(event: Mapping[str, Any]) -> Caller:
    """The caller of an HTTP API (payload v2) event, from the JWT authorizer's claims."""
    claims = (((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt") or {}).get("claims")
    if not isinstance(claims, Mapping):
        raise Unauthorized("no authorizer claims")
    return caller_from_claims(claims)


@functools.lru_cache(maxsize=4)
def _jwks_client(url: str) -> PyJWKClient:
    from jwt import PyJWKClient

    return PyJWKClient(url, cache_keys=True)


@functools.lru_cache(maxsize=4)
def _file_jwks(path: str) -> Any:
    import jwt

    with open(path, encoding="utf-8") as keys:
        return jwt.PyJWKSet.from_dict(json.load(keys))


def _signing_key(token: str, jwks_url: str) -> Any:
    """The key that signed ``token``: from the JWKS at ``jwks_url`` (``https://``, or ``file://`` locally)."""
    import jwt

    if not jwks_url.startswith("file://"):
        return _jwks_client(jwks_url).get_signing_key_from_jwt(token).key
    from urllib.parse import unquote, urlparse

    kid = jwt.get_unverified_header(token).get("kid")
    keys = _file_jwks(unquote(urlparse(jwks_url).path))
    for key in keys.keys:
        if kid is None or key.key_id == kid:
            return key.key
    raise jwt.InvalidKeyError(f"no signing key {kid!r} in the JWKS")


def verify_token(token: str | None, config: Settings | None = None) -> Caller:
    """Check a JWT's signature (JWKS), expiry, issuer and audience; the caller it names.

    Raises ``Unauthorized`` for a missing, malformed, expired or foreign token.
    """
    import jwt

    config = config or settings()
    if not token:
        raise Unauthorized("a token is required")
    if not config.jwks_url:
        raise Unauthorized("token verification is not configured")
    try:
        key = _signing_key(token, config.jwks_url)
        claims = jwt.decode(
            token,
            key=key,
            algorithms=_JWT_ALGORITHMS,
            issuer=config.jwt_issuer or None,
            options={"verify_aud": False, "require": ["exp"]},
        )
    except jwt.PyJWTError as error:
        raise Unauthorized(f"invalid token: {type(error).__name__}") from error
    if config.jwt_audience:
        # An ID token carries `aud`; a Cognito access token carries `client_id` instead.
        audiences = claims.get("aud") or claims.get("client_id")
        audiences = [audiences] if isinstance(audiences, str) else list(audiences or ())
        accepted = {a.strip() for a in config.jwt_audience.split(",") if a.strip()}  # the app clients' ids
        if not accepted.intersection(audiences):
            raise Unauthorized("invalid token: wrong audience")
    return caller_from_claims(claims, config.operators_group)
