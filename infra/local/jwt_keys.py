"""The local stack's own token keys: what stands in for the Cognito user pool.

An RSA key pair kept in ``cdk.out/local/jwt-signing-key.pem`` (created on first
use), so ``tourney local up`` and ``tourney local token`` agree. Tokens carry
Cognito's claims (``sub``, ``username``, ``cognito:groups``, ``token_use``,
``client_id``, ``aud``, ``iss``, ``exp``); the issuer and audience are those the
template's JWT authorizer expects, resolved locally. The public keys are also
written as a JWKS (``jwks.json`` beside the key) for handlers that verify tokens
themselves (the WebSocket ``$connect``): their ``JWT_JWKS_URL`` points at it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from infra.local.template import Resolver, Template

KEY_FILE = "jwt-signing-key.pem"
JWKS_FILE = "jwks.json"
DEFAULT_ISSUER = "https://cognito-idp.local/tourney"
DEFAULT_AUDIENCE = "tourney-local"
OPERATORS_GROUP = "operators"
PLAYERS_GROUP = "players"


@dataclass(frozen=True)
class AuthConfig:
    """What the authorizer checks: the issuer, the accepted audiences, the operators' group."""

    issuer: str = DEFAULT_ISSUER
    audiences: tuple[str, ...] = (DEFAULT_AUDIENCE,)
    operators_group: str = OPERATORS_GROUP


def auth_config(template: Template, resolver: Resolver) -> AuthConfig:
    """The first JWT authorizer's issuer and audience (else local defaults); the operators' group name."""
    group = OPERATORS_GROUP
    for _, props in template.of_type("AWS::Cognito::UserPoolGroup"):
        name = str(resolver.resolve(props.get("GroupName", "")))
        if "operator" in name.lower():
            group = name
    for _, props in template.of_type("AWS::ApiGatewayV2::Authorizer"):
        if props.get("AuthorizerType") != "JWT":
            continue
        config = resolver.resolve(props.get("JwtConfiguration") or {})
        audiences = tuple(str(a) for a in config.get("Audience", ()) or ())
        return AuthConfig(str(config.get("Issuer", DEFAULT_ISSUER)), audiences or (DEFAULT_AUDIENCE,), group)
    return AuthConfig(operators_group=group)


class SigningKeys:
    """An RS256 key pair in a folder (created there once), with its JWKS."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._private = self._load_or_create()
        public_pem = self._private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.kid = hashlib.sha256(public_pem).hexdigest()[:16]
        self.jwks_path = self.folder / JWKS_FILE
        self._write_jwks()

    def _load_or_create(self) -> rsa.RSAPrivateKey:
        path = self.folder / KEY_FILE
        self.folder.mkdir(parents=True, exist_ok=True)
        for _ in range(50):
            if path.exists() and path.stat().st_size > 0:
                try:
                    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
                except ValueError:
                    time.sleep(0.05)  # another process is writing it
                    continue
                assert isinstance(key, rsa.RSAPrivateKey)
                return key
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            except FileExistsError:
                time.sleep(0.05)
                continue
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            with os.fdopen(fd, "wb") as out:
                out.write(
                    key.private_bytes(
                        serialization.Encoding.PEM,
                        serialization.PrivateFormat.PKCS8,
                        serialization.NoEncryption(),
                    )
                )
            return key
        raise RuntimeError(f"cannot read the signing key {path}")

    def jwks(self) -> dict[str, Any]:
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self._private.public_key()))
        return {"keys": [{**public, "kid": self.kid, "alg": "RS256", "use": "sig"}]}

    def _write_jwks(self) -> None:
        temporary = self.jwks_path.with_name(f".{JWKS_FILE}.{os.getpid()}")
        temporary.write_text(json.dumps(self.jwks()))
        os.replace(temporary, self.jwks_path)

    @property
    def jwks_url(self) -> str:
        return self.jwks_path.resolve().as_uri()

    def mint(self, player: str, config: AuthConfig, operator: bool = False, ttl_seconds: int = 12 * 3600) -> str:
        """A token for ``player`` (an operator with ``operator``), as Cognito would issue it."""
        now = int(time.time())
        groups = [config.operators_group] if operator else [PLAYERS_GROUP]
        claims = {
            "sub": player,
            "username": player,
            "cognito:username": player,
            "cognito:groups": groups,
            "token_use": "access",
            "scope": "aws.cognito.signin.user.admin",
            "client_id": config.audiences[0],
            "aud": config.audiences[0],
            "iss": config.issuer,
            "iat": now,
            "auth_time": now,
            "exp": now + ttl_seconds,
            "jti": str(uuid.uuid4()),
            "origin_jti": str(uuid.uuid4()),
            "event_id": str(uuid.uuid4()),
        }
        return jwt.encode(claims, self._private, algorithm="RS256", headers={"kid": self.kid})

    def verify(self, token: str, issuer: str, audiences: Sequence[str]) -> Mapping[str, Any]:
        """The claims of a valid token (signature, expiry, issuer, audience or client_id); raises ``jwt.PyJWTError``."""
        claims: dict[str, Any] = jwt.decode(
            token,
            key=self._private.public_key(),
            algorithms=["RS256"],
            issuer=issuer,
            options={"verify_aud": False, "require": ["exp", "iss"]},
        )
        presented = claims.get("aud") or claims.get("client_id")
        presented_list = [presented] if isinstance(presented, str) else list(presented or ())
        if audiences and not set(presented_list) & set(audiences):
            raise jwt.InvalidAudienceError("the token's audience is not accepted")
        return claims
